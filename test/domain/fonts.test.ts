/**
 * Custom fonts: stored one row per font, read by any member, changed by admins; a
 * regular face always; font file URLs checked (https, .woff2/.woff, no credentials),
 * never fetched.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RawInput } from '../../src/api/validate.js';
import { orgFonts } from '../../src/domain/fonts.js';
import { type Harness, type List, setup } from './harness.js';
import { schemaErrors } from './openapi.js';

let h: Harness;
beforeEach(async () => {
  h = await setup();
});

const CDN = 'https://cdn.example.com/fonts';
const org = () => ({ organizationId: h.orgId });
const font = (fontId: string): RawInput => ({ params: { ...org(), fontId } });
const face = (weight: number, storageKey: string | null = `${CDN}/inter-${weight}.woff2`) => ({ weight, storageKey });

async function createFont(body: Record<string, unknown>) {
  const created = await h.admin.ok<{ id: string; fontFaces: unknown[] }>('createCustomFont', { params: org(), body }, 201);
  expect(schemaErrors('CustomizationFontDefinition', created)).toEqual([]);
  return created;
}

describe('custom fonts', () => {
  it('are created with their faces by weight, listed, read, changed and deleted', async () => {
    const inter = await createFont({ fontFamily: ' Inter ', fontFaces: [face(700), face(400, `${CDN}/Inter-Regular.WOFF`)] });
    expect(inter).toEqual({
      id: expect.any(String),
      custom: true,
      fontFamily: 'Inter',
      fontFaces: [
        { weight: 400, sources: [{ url: `${CDN}/Inter-Regular.WOFF`, format: 'woff' }] },
        { weight: 700, sources: [{ url: `${CDN}/inter-700.woff2`, format: 'woff2' }] },
      ],
      permissions: { edit: true },
    });
    const serif = await createFont({ fontFamily: 'Playfair Display', fontFaces: [face(400)] });
    const list = await h.admin.ok<List>('listCustomFonts', { params: org() });
    expect(list.count).toBe(2);
    expect(list.items.map((item) => item.fontFamily)).toEqual(['Inter', 'Playfair Display']);
    expect(await h.admin.ok('getCustomFont', font(serif.id))).toMatchObject({ fontFamily: 'Playfair Display' });

    const updated = await h.admin.ok<{ fontFamily: string; fontFaces: Array<{ weight: number; sources: Array<{ url: string }> }> }>(
      'updateCustomFont',
      { ...font(inter.id), body: { fontFamily: 'Inter Var', fontFaces: [face(700, null), face(900), face(400)] } },
      201,
    );
    expect(schemaErrors('CustomizationFontDefinition', updated)).toEqual([]);
    expect(updated.fontFamily).toBe('Inter Var');
    expect(updated.fontFaces.map((f) => [f.weight, f.sources[0]?.url])).toEqual([
      [400, `${CDN}/inter-400.woff2`],
      [900, `${CDN}/inter-900.woff2`],
    ]);
    // Only the family: the faces stay.
    const renamed = await h.admin.ok<{ fontFaces: unknown[] }>('updateCustomFont', { ...font(inter.id), body: { fontFamily: 'Inter' } }, 201);
    expect(renamed.fontFaces).toEqual(updated.fontFaces);

    expect((await h.admin.call('deleteCustomFont', font(inter.id))).status).toBe(205);
    expect((await h.admin.call('deleteCustomFont', font(inter.id))).status).toBe(204);
    await h.admin.fails('getCustomFont', font(inter.id), 404, new RegExp(`Font ${inter.id} not found in organization ${h.orgId}`));
    await h.admin.fails('updateCustomFont', { ...font(inter.id), body: { fontFamily: 'X' } }, 404);
    expect(orgFonts.count(h.store.read(), h.orgId)).toBe(1);
  });

  it('always keeps a regular face (412), each weight once (400)', async () => {
    await h.admin.fails('createCustomFont', { params: org(), body: { fontFamily: 'Inter', fontFaces: [face(700)] } }, 412, /regular face \(weight 400\)/);
    await h.admin.fails('createCustomFont', { params: org(), body: { fontFamily: 'Inter', fontFaces: [face(400), face(400)] } }, 400, /weight 400 is given twice/);
    const inter = await createFont({ fontFamily: 'Inter', fontFaces: [face(400), face(700)] });
    const gen = h.store.read().gen;
    await h.admin.fails('updateCustomFont', { ...font(inter.id), body: { fontFaces: [face(400, null)] } }, 412);
    await h.admin.fails('updateCustomFont', { ...font(inter.id), body: {} }, 400, /Nothing to update/);
    expect(h.store.read().gen).toBe(gen);
  });

  it('checks font file URLs and family names as hostile input', async () => {
    const refused: Array<[string, RegExp]> = [
      ['fonts/inter.woff2', /absolute https:\/\/ URL/],
      ['http://cdn.example.com/inter.woff2', /use an https:\/\/ URL/],
      ['javascript:alert(1)//x.woff2', /use an https:\/\/ URL/],
      ['file:///etc/passwd.woff', /use an https:\/\/ URL/],
      ['https://user:secret@cdn.example.com/inter.woff2', /cannot carry credentials/],
      ['https://cdn.example.com/inter.ttf', /\.woff2 or \.woff file/],
      ['https://cdn.example.com/inter .woff2', /whitespace or control characters/],
      ['https://cdn.example.com/in\nter.woff2', /whitespace or control characters/],
    ];
    for (const [url, message] of refused) {
      const error = await h.admin.fails('createCustomFont', { params: org(), body: { fontFamily: 'Inter', fontFaces: [face(400, url)] } }, 400, message);
      expect(error.message).not.toContain('secret');
    }
    for (const family of ['Evil"; } body { x', 'Tab\there', '   ']) {
      await h.admin.fails('createCustomFont', { params: org(), body: { fontFamily: family, fontFaces: [face(400)] } }, 400, /fontFamily/);
    }
    // http on a loopback host is for local development.
    await createFont({ fontFamily: 'Dev', fontFaces: [face(400, 'http://localhost:8080/dev.woff2')] });
    expect(orgFonts.count(h.store.read(), h.orgId)).toBe(1);
  });

  it('never fetches a font file', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.end('not a font');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/font.woff2`;
      const created = await createFont({ fontFamily: 'Local', fontFaces: [face(400, url)] });
      await h.admin.ok('getCustomFont', font(created.id));
      await h.admin.ok('listCustomFonts', { params: org() });
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });

  it('any member reads fonts, only admins change them', async () => {
    const inter = await createFont({ fontFamily: 'Inter', fontFaces: [face(400)] });
    const reader = await h.member('reader@acme.test', 'read');
    expect(await h.ok(reader, 'getCustomFont', font(inter.id))).toMatchObject({ permissions: { edit: false } });
    await h.fails(reader, 'createCustomFont', { params: org(), body: { fontFamily: 'X', fontFaces: [face(400)] } }, 403, /"admin" role/);
    await h.fails(reader, 'deleteCustomFont', font(inter.id), 403);
    const guest = await h.member('guest@acme.test', null);
    await h.fails(guest, 'listCustomFonts', { params: org() }, 403, /"read" role/);
  });
});

describe('getApiInformation', () => {
  it('answers the version and build of this docsctl to any caller', async () => {
    const info = await h.admin.ok('getApiInformation');
    expect(schemaErrors('ApiInformation', info)).toEqual([]);
    // From the sources (tests) there is no build: the bundle carries the package version and commit date (test/e2e).
    expect(info).toEqual({ version: '0.0.0-dev', build: 'development' });
  });
});
