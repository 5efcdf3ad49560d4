/**
 * serve sends a GET answer again, as bytes, while the store stays at the generation it
 * was computed from, for the same Authorization header and URL (ServedAnswers): no route,
 * token, access check or handler runs for it. Only answers that depend on nothing else are
 * kept: a handler that asks the clock (a deleted space's restore window) or for ids is
 * computed every time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/domain/accounts.js';
import { type RunningServer, startServer } from '../../src/server/server.js';
import { ServedAnswers } from '../../src/server/served-answers.js';
import { DAY, setup } from '../domain/harness.js';
import { watchedReads } from '../helpers/stores.js';

describe('ServedAnswers', () => {
  const keep = (answers: ServedAnswers, gen: number, url: string, json: string) => answers.keep(gen, 'Bearer t', url, 200, {}, json);

  it('keeps an answer for its generation, drops every answer at a newer one, and never keeps an older one', () => {
    const answers = new ServedAnswers();
    const kept = answers.keep(3, 'Bearer t', '/a', 200, { 'x-one': '1' }, '{"a":1}');
    expect(kept.headers).toEqual(['x-one', '1', 'content-type', 'application/json; charset=utf-8', 'content-length', '7']);
    expect(answers.get(3, 'Bearer t', '/a')).toBe(kept);
    expect(answers.get(3, 'Bearer u', '/a')).toBeUndefined(); // another token
    expect(answers.get(3, 'Bearer t', '/a?x=1')).toBeUndefined(); // another URL
    expect(answers.get(4, 'Bearer t', '/a')).toBeUndefined();
    expect(answers.get(3, 'Bearer t', '/a')).toBeUndefined(); // gone with generation 3
    keep(answers, 3, '/b', '{}'); // computed from an older snapshot than the newest seen: sent, not kept
    expect(answers.get(4, 'Bearer t', '/b')).toBeUndefined();
  });

  it('holds at most its entries, the oldest leaving first; a body over 256 KB is not kept', () => {
    const answers = new ServedAnswers(2);
    keep(answers, 1, '/a', '"aaa"');
    keep(answers, 1, '/b', '"bbb"');
    keep(answers, 1, '/c', '"c"');
    expect(answers.get(1, 'Bearer t', '/a')).toBeUndefined();
    expect(answers.get(1, 'Bearer t', '/b')?.body.toString()).toBe('"bbb"');
    keep(answers, 1, '/d', '"ddddd"'); // two entries already: b leaves first
    expect(answers.get(1, 'Bearer t', '/b')).toBeUndefined();
    expect(answers.get(1, 'Bearer t', '/c')?.body.toString()).toBe('"c"');
    const big = new ServedAnswers();
    keep(big, 1, '/big', JSON.stringify('x'.repeat(256 * 1024)));
    expect(big.get(1, 'Bearer t', '/big')).toBeUndefined();
  });

  it('counts the token and URL in its bytes, not only bodies: 16 KB URLs with tiny bodies leave within the bound', () => {
    const answers = new ServedAnswers(4096, 64 * 1024);
    const url = (i: number) => `/v1/spaces/s?q=${String(i).padEnd(16 * 1024, 'y')}`;
    for (let i = 0; i < 10; i += 1) keep(answers, 1, url(i), '{}');
    // Each entry holds over 32 KB (a 16 KB key at two bytes a character): one fits in 64 KB, the newest.
    expect([...Array(10).keys()].filter((i) => answers.get(1, 'Bearer t', url(i)) !== undefined)).toEqual([9]);
    const bodies = new ServedAnswers(4096, 64 * 1024);
    for (let i = 0; i < 10; i += 1) keep(bodies, 1, `/${i}`, JSON.stringify('x'.repeat(20 * 1024)));
    expect([...Array(10).keys()].filter((i) => bodies.get(1, 'Bearer t', `/${i}`) !== undefined)).toEqual([7, 8, 9]);
  });
});

describe('serve: GET answers kept as bytes for the generation', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  async function served() {
    const h = await setup();
    const space = await h.createSpace({ title: 'Guide' });
    const reader = await h.member('rita@acme.test', 'read');
    const ritaToken = await h.store.transact((tx) => issueToken(tx, reader, 'rita', h.clock).token);
    let reads = 0;
    const store = watchedReads(h.store, () => {
      reads += 1;
    });
    server = await startServer({ store, port: 0, clock: h.clock, ids: h.ids, rateLimit: { limit: 100, windowMs: 60_000 } });
    const url = server.url;
    const call = async (method: string, path: string, token = h.boot.token, body?: object) => {
      const response = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return { status: response.status, headers, text, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
    };
    return { h, space, ritaToken, call, reads: () => reads };
  }

  it('answers a repeated read without reading the store, with the same bytes and headers, until a commit', async () => {
    const { space, call, reads } = await served();
    const path = `/v1/spaces/${space.id}`;
    const first = await call('GET', path);
    expect(first.status).toBe(200);
    expect(first.body?.title).toBe('Guide');
    const readsAfterFirst = reads();
    const again = await call('GET', path);
    expect(reads()).toBe(readsAfterFirst); // nothing read: the kept bytes
    expect(again.text).toBe(first.text);
    const { date: _d1, 'x-ratelimit-remaining': left1, ...headers1 } = first.headers;
    const { date: _d2, 'x-ratelimit-remaining': left2, ...headers2 } = again.headers;
    expect(headers2).toEqual(headers1);
    expect(headers2['content-type']).toBe('application/json; charset=utf-8');
    expect(headers2['content-length']).toBe(String(Buffer.byteLength(first.text)));
    // The rate limit still counts every request.
    expect(Number(left2)).toBe(Number(left1) - 1);

    // A write is a new generation: the next read computes the answer again and shows it.
    expect((await call('PATCH', path, undefined, { title: 'Handbook' })).status).toBe(200);
    const after = await call('GET', path);
    expect(after.body?.title).toBe('Handbook');
    expect(reads()).toBeGreaterThan(readsAfterFirst);
  });

  it('keeps each token its own answer: a reader sees a reader’s permissions, an unknown token is refused', async () => {
    const { space, ritaToken, call } = await served();
    const path = `/v1/spaces/${space.id}`;
    const admin = await call('GET', path);
    expect((admin.body?.permissions as Record<string, boolean>).edit).toBe(true);
    for (let i = 0; i < 2; i++) {
      const rita = await call('GET', path, ritaToken);
      expect(rita.status).toBe(200);
      expect((rita.body?.permissions as Record<string, boolean>).edit).toBe(false);
    }
    expect((await call('GET', path, 'gb_api_not_a_token')).status).toBe(401);
    expect((await call('GET', path)).text).toBe(admin.text);
  });

  it('computes every time an answer that asked the clock: a deleted space leaves when its restore window ends, with no commit', async () => {
    const { h, space, call } = await served();
    const path = `/v1/spaces/${space.id}`;
    expect((await call('GET', path)).status).toBe(200);
    expect((await call('DELETE', path)).status).toBe(205);
    const deleted = await call('GET', path);
    expect(deleted.status).toBe(200);
    expect(typeof deleted.body?.deletedAt).toBe('string');
    expect((await call('GET', path)).status).toBe(200);
    h.clock.advance(8 * DAY); // no commit: the same generation
    expect((await call('GET', path)).status).toBe(404);
  });

  it('does not keep an error: each refusal is computed again', async () => {
    const { call, reads } = await served();
    const path = '/v1/spaces/nothing-here';
    expect((await call('GET', path)).status).toBe(404);
    const before = reads();
    expect((await call('GET', path)).status).toBe(404);
    expect(reads()).toBeGreaterThan(before);
  });
});
