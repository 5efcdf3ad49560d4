/**
 * InputPolicy: what a request's URLs and paths may reach. Hostile addresses in
 * every spelling are refused under `serve`'s default policy; local mode allows
 * everything; --allow-local roots are checked after resolving symlinks.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError, UsageError } from '../../src/api/errors.js';
import {
  type InputPolicy,
  LOCAL_POLICY,
  SERVE_POLICY,
  allowedLocalPath,
  checkScheme,
  isNonPublicAddress,
  resolveAllowedAddresses,
  servePolicy,
} from '../../src/domain/policy.js';
import { cleanupTempDirs, tempDir } from '../helpers/stores.js';

afterAll(cleanupTempDirs);

/** A resolver stub: no network, names answer what the table says. */
const stubResolve = (table: Record<string, string[]>) => async (host: string) => {
  const answer = table[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
};

async function statusOf(promise: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

describe('isNonPublicAddress', () => {
  const nonPublic = [
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv4 loopback, elsewhere in 127/8', '127.45.6.7'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.20.0.1'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local / cloud metadata', '169.254.169.254'],
    ['CGNAT', '100.64.0.1'],
    ['unspecified v4', '0.0.0.0'],
    ['multicast v4', '224.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['IPv6 loopback', '::1'],
    ['IPv6 loopback in brackets', '[::1]'],
    ['IPv6 unspecified', '::'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 unique local', 'fc00::1'],
    ['AWS IPv6 metadata', 'fd00:ec2::254'],
    ['IPv6 multicast', 'ff02::1'],
    ['v4-mapped loopback', '::ffff:127.0.0.1'],
    ['v4-mapped loopback, hex', '::ffff:7f00:1'],
    ['v4-mapped metadata', '::ffff:169.254.169.254'],
    ['NAT64 of loopback', '64:ff9b::7f00:1'],
    ['decimal host', '2130706433'],
    ['octal host', '0177.0.0.1'],
    ['hex host', '0x7f.0.0.1'],
    ['short form', '127.1'],
    ['not an address at all', 'not-an-ip'],
  ] as const;
  it.each(nonPublic)('%s (%s) is not public', (_name, address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([['8.8.8.8'], ['93.184.216.34'], ['2606:4700:4700::1111'], ['::ffff:8.8.8.8']])('%s is public', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

describe('resolveAllowedAddresses', () => {
  const resolve = stubResolve({
    'internal.example': ['127.0.0.1'],
    'mixed.example': ['93.184.216.34', '10.0.0.5'],
    'metadata.example': ['169.254.169.254'],
    'public.example': ['93.184.216.34'],
    'v6only.example': ['::1'],
  });
  const serve: InputPolicy = { ...SERVE_POLICY, resolve };

  it.each([
    ['a name resolving to 127.0.0.1', 'internal.example'],
    ['a name with one private address among public ones', 'mixed.example'],
    ['a name resolving to the metadata address', 'metadata.example'],
    ['a name resolving to ::1', 'v6only.example'],
    ['a loopback literal', '127.0.0.1'],
    ['a bracketed IPv6 literal', '[::1]'],
    ['a mapped literal', '[::ffff:127.0.0.1]'],
  ])('refuses %s under serve (403, naming --allow-private-network)', async (_name, host) => {
    await expect(resolveAllowedAddresses(serve, host)).rejects.toThrow(/--allow-private-network/);
    expect(await statusOf(resolveAllowedAddresses(serve, host))).toBe(403);
  });

  it('answers the checked addresses of a public name, to connect to them (no second lookup)', async () => {
    expect(await resolveAllowedAddresses(serve, 'public.example')).toEqual(['93.184.216.34']);
  });

  it('allows private addresses with --allow-private-network and locally', async () => {
    expect(await resolveAllowedAddresses({ ...serve, privateNetwork: true }, 'internal.example')).toEqual(['127.0.0.1']);
    expect(await resolveAllowedAddresses({ ...LOCAL_POLICY, resolve }, 'internal.example')).toEqual(['127.0.0.1']);
  });

  it('answers 400 for a name that does not resolve', async () => {
    expect(await statusOf(resolveAllowedAddresses(serve, 'nowhere.example'))).toBe(400);
  });
});

describe('checkScheme', () => {
  it('refuses plain http to a non-loopback host under serve, unless --allow-http', () => {
    expect(() => checkScheme(SERVE_POLICY, new URL('http://docs.example/a.md'))).toThrow(/--allow-http/);
    expect(() => checkScheme({ ...SERVE_POLICY, plainHttp: true }, new URL('http://docs.example/a.md'))).not.toThrow();
    expect(() => checkScheme(SERVE_POLICY, new URL('https://docs.example/a.md'))).not.toThrow();
    expect(() => checkScheme(SERVE_POLICY, new URL('http://127.0.0.1:8080/a.md'))).not.toThrow();
    expect(() => checkScheme(LOCAL_POLICY, new URL('http://docs.example/a.md'))).not.toThrow();
  });
});

describe('allowedLocalPath and --allow-local', () => {
  const root = realpathSync(tempDir('docsctl-policy-'));
  const allowed = join(root, 'allowed');
  const outside = join(root, 'outside');
  mkdirSync(join(allowed, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(allowed, 'docs', 'a.md'), '# A\n');
  writeFileSync(join(outside, 'secret.md'), '# Secret\n');
  symlinkSync(outside, join(allowed, 'link-out'));
  symlinkSync(join(allowed, 'docs'), join(allowed, 'link-in'));
  mkdirSync(`${allowed}-sibling`);
  const policy: InputPolicy = { ...SERVE_POLICY, localRoots: [allowed] };

  it.each([
    ['a file below the root', join(allowed, 'docs', 'a.md'), join(allowed, 'docs', 'a.md')],
    ['the root itself', allowed, allowed],
    ['a symlink staying inside', join(allowed, 'link-in', 'a.md'), join(allowed, 'docs', 'a.md')],
  ])('allows %s (answering its real path)', async (_name, target, real) => {
    expect(await allowedLocalPath(policy, target)).toBe(real);
  });

  it.each([
    ['a path outside', join(outside, 'secret.md')],
    ['a ".." escape', `${allowed}/docs/../../outside/secret.md`],
    ['a symlink out of the root', join(allowed, 'link-out', 'secret.md')],
    ['a sibling sharing the prefix', `${allowed}-sibling`],
    ['/etc/passwd', '/etc/passwd'],
    ['a relative path', 'docs/a.md'],
    ['a missing file (without saying so)', join(allowed, 'missing.md')],
  ])('refuses %s with 403', async (_name, target) => {
    expect(await statusOf(allowedLocalPath(policy, target))).toBe(403);
  });

  it('refuses every path when no root is allowed (serve without --allow-local), allows any locally', async () => {
    expect(await statusOf(allowedLocalPath(SERVE_POLICY, join(allowed, 'docs', 'a.md')))).toBe(403);
    expect(await allowedLocalPath(LOCAL_POLICY, join(outside, 'secret.md'))).toBe(join(outside, 'secret.md'));
  });

  it('servePolicy resolves the --allow-local roots and refuses a missing or non-directory one', async () => {
    const built = await servePolicy({ allowLocal: [join(allowed, 'link-in', '..')], allowHttp: true });
    expect(built).toEqual({ localRoots: [allowed], privateNetwork: false, plainHttp: true });
    expect(await servePolicy({})).toEqual({ localRoots: [], privateNetwork: false, plainHttp: false });
    await expect(servePolicy({ allowLocal: [join(root, 'nope')] })).rejects.toThrow(UsageError);
    await expect(servePolicy({ allowLocal: [join(allowed, 'docs', 'a.md')] })).rejects.toThrow(/not a directory/);
  });
});
