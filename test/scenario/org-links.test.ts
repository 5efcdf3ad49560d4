/**
 * An administrator's script over invite links, custom fonts and the API's version:
 * run locally and against `serve`, the two print the same and exit the same — and
 * what they print is what it should be.
 */
import { describe, expect, it } from 'vitest';
import { type Step, inBothModes } from '../helpers/scenario.js';

const CDN = 'https://cdn.example.com/fonts';

const steps: Step[] = [
  /* 0 */ { argv: ['invite-link', 'create', '--role', 'edit'] },
  /* 1 */ { argv: ['org', 'edit', '{org}', '--invite-links', '--json'] },
  /* 2 */ { argv: ['invite-link', 'create', '--role', 'edit', '--format', 'ids'], capture: 'link' },
  /* 3 */ { argv: ['invite-link', 'create', '--role', 'guest'] },
  /* 4 */ { argv: ['invite-link', 'list'] },
  /* 5 */ { argv: ['invite-link', 'edit', '{link}', '--role', 'read', '--json'] },
  /* 6 */ { argv: ['invite-link', 'get', '{link}'] },
  /* 7 */ { argv: ['invite-link', 'join', '{org}', '{link}'] },
  /* 8 */ { argv: ['invite-link', 'delete', '{link}', '--yes'] },
  /* 9 */ { argv: ['invite-link', 'get', '{link}'] },
  /* 10 */ { argv: ['invite-link', 'join', '{org}', '{link}'] },
  /* 11 */ { argv: ['font', 'create', '--family', 'Inter', '--face', `400=${CDN}/inter-400.woff2`, `700=${CDN}/inter-700.woff2`, '--format', 'ids'], capture: 'font' },
  /* 12 */ { argv: ['font', 'create', '--family', 'Bold only', '--face', `700=${CDN}/b.woff2`] },
  /* 13 */ { argv: ['font', 'create', '--family', 'Plain', '--face', '400=http://cdn.example.com/p.woff2'] },
  /* 14 */ { argv: ['font', 'list'] },
  /* 15 */ { argv: ['font', 'edit', '{font}', '--remove', '700', '--face', `900=${CDN}/inter-900.woff`, '--json'] },
  /* 16 */ { argv: ['font', 'get', '{font}'] },
  /* 17 */ { argv: ['font', 'delete', '{font}', '--yes'] },
  /* 18 */ { argv: ['font', 'get', '{font}'] },
  /* 19 */ { argv: ['system', 'info', '--json'] },
  /* 20 */ { argv: ['org', 'edit', '{org}', '--no-invite-links', '--json'] },
];

describe('invite links, fonts and system info, locally and through serve', () => {
  const { at } = inBothModes(steps);

  it('creates invite links only once the organization turns them on, and manages them', () => {
    expect(at(0).exitCode).toBe(5);
    expect(at(0).stderr).toMatch(/Invite links are disabled .*--invite-links/);
    expect(JSON.parse(at(1).stdout)).toMatchObject({ inviteLinks: true });
    const link = at(2).stdout.trim();
    expect(link).toMatch(/^x\d{6}x\d{6}$/);
    expect(at(3).stdout).toMatch(/^x\d{6}x\d{6}\tguest\ttrue\n$/);
    expect(at(4).stdout).toBe(`${link}\tedit\ttrue\n${at(3).stdout}`);
    expect(JSON.parse(at(5).stdout)).toEqual({ object: 'invite', id: link, role: 'read', redundant: true });
    expect(at(6).stdout).toBe(`${link}\tread\ttrue\n`);
    // The admin joining again: nothing changes, exit 0.
    expect(at(7)).toMatchObject({ exitCode: 0, stdout: '' });
    expect(at(7).stderr).toMatch(/^You are a member of organization x\d{6}\n$/);
    expect(at(8).exitCode).toBe(0);
    expect(at(9).exitCode).toBe(4);
    expect(at(9).stderr).toMatch(/Invite link not found/);
    expect(at(10).exitCode).toBe(4);
    expect(JSON.parse(at(20).stdout)).toMatchObject({ inviteLinks: false });
  });

  it('keeps fonts with a regular face and checked file URLs', () => {
    const font = at(11).stdout.trim();
    expect(font).toMatch(/^x\d{6}$/);
    expect(at(12).exitCode).toBe(5);
    expect(at(12).stderr).toMatch(/regular face \(weight 400\)/);
    expect(at(13).exitCode).toBe(2);
    expect(at(13).stderr).toMatch(/use an https:\/\/ URL/);
    expect(at(14).stdout).toMatch(new RegExp(`^${font}\\tInter\\t400,700(\\t[^\\n]*)?\\n$`));
    expect(JSON.parse(at(15).stdout)).toEqual({
      id: font,
      custom: true,
      fontFamily: 'Inter',
      fontFaces: [
        { weight: 400, sources: [{ url: `${CDN}/inter-400.woff2`, format: 'woff2' }] },
        { weight: 900, sources: [{ url: `${CDN}/inter-900.woff`, format: 'woff' }] },
      ],
      permissions: { edit: true },
    });
    expect(at(16).stdout).toMatch(new RegExp(`^${font}\\tInter\\t400,900`));
    expect(at(17).exitCode).toBe(0);
    expect(at(18).exitCode).toBe(4);
  });

  it('tells which docsctl answers', () => {
    const info = JSON.parse(at(19).stdout);
    expect(info).toEqual({ version: '0.0.0-dev', build: 'development' });
  });
});
