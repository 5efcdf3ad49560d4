import * as fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafeDirectoryError, cacheDir, checkPrivateDir, ensurePrivateDir } from '../../src/util/private-dir.js';
import { redactSecrets, redactUrls } from '../../src/util/redact.js';

describe('redactUrls', () => {
  it.each([
    ['https://bob:Pa/ss-77@host/x.git', 'https://***@host/x.git'],
    ['clone of https://bob:secret@github.com/a/b failed', 'clone of https://***@github.com/a/b failed'],
    ['ssh://git:pw@host:22/r', 'ssh://***@host:22/r'],
    ['http://tok@h/x and https://u:p@@h2/y', 'http://***@h/x and https://***@h2/y'],
    ['https://example.com/no-userinfo', 'https://example.com/no-userinfo'],
    ['git@github.com:org/repo.git', 'git@github.com:org/repo.git'],
  ])('%s', (input, expected) => {
    expect(redactUrls(input)).toBe(expected);
  });

  it('hides bearer tokens and token query values', () => {
    expect(redactSecrets('GET /x?token=abc&b=1 Authorization: Bearer gb_api_123')).toBe('GET /x?token=***&b=1 Authorization: Bearer ***');
  });
});

describe('private directories', () => {
  it('creates the directory 0700 and tightens one of ours', () => {
    const base = mkdtempSync(path.join(tmpdir(), 'docsctl-pd-'));
    const dir = ensurePrivateDir(path.join(base, 'a', 'b'));
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    fs.chmodSync(dir, 0o777);
    ensurePrivateDir(dir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a symlink and a directory owned by someone else', () => {
    const base = mkdtempSync(path.join(tmpdir(), 'docsctl-pd-'));
    fs.mkdirSync(path.join(base, 'real'));
    fs.symlinkSync(path.join(base, 'real'), path.join(base, 'link'));
    expect(() => checkPrivateDir(path.join(base, 'link'))).toThrow(UnsafeDirectoryError);
    if (process.getuid?.() === 0) {
      const foreign = path.join(base, 'foreign');
      fs.mkdirSync(foreign, { mode: 0o700 });
      fs.chownSync(foreign, 12345, 12345);
      expect(() => checkPrivateDir(foreign)).toThrow(/owned by another user/);
    }
  });

  it('puts caches under XDG_CACHE_HOME or DOCSCTL_CACHE_DIR', () => {
    expect(cacheDir('git', { XDG_CACHE_HOME: '/x/cache' })).toBe('/x/cache/docsctl/git');
    expect(cacheDir('git', { DOCSCTL_CACHE_DIR: '/y' })).toBe('/y/git');
  });
});
