/**
 * What a caller's input may reach on the machine that runs the handler.
 *
 * In local mode the user owns the disk and the network they run docsctl on, so
 * everything is allowed (`LOCAL_POLICY`). Under `serve` a request comes from any
 * token holder: local files, private addresses and plain HTTP are refused unless
 * the operator opened them (`serve --allow-local DIR`, `--allow-private-network`,
 * `--allow-http`). Every handler that reads a path or fetches a URL named by its
 * input (content import, git import/export) checks it here first.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { UsageError, badRequest, forbidden } from '../api/errors.js';

export { type InputPolicy, LOCAL_POLICY, SERVE_POLICY } from './input-policy.js';
import type { InputPolicy } from './input-policy.js';

// node:dns is loaded when a host is first resolved, not by every command that loads this module.
const systemResolve = async (host: string): Promise<string[]> => {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
};

/** Address ranges (ipaddr.js names) that are not the public internet. */
const NON_PUBLIC = new Set([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'carrierGradeNat',
  'private',
  'reserved',
  'uniqueLocal',
  'ipv4Mapped',
  'rfc6145',
  'rfc6052',
  '6to4',
  'teredo',
  'benchmarking',
  'amt',
  'as112',
  'as112v6',
  'deprecated',
  'orchid2',
  'droneRemoteIdProtocolEntityTags',
]);

/** True when `address` (an IP literal) is loopback, private, link-local, metadata or otherwise not public. */
export function isNonPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return true; // not an address we can classify: treat as non-public
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return NON_PUBLIC.has(parsed.range());
}

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  return ipaddr.isValid(bare) && ipaddr.parse(bare).range() === 'loopback';
}

const refusePrivate = (host: string, address: string) =>
  forbidden(
    `Refusing to fetch from ${host} (${address}): a loopback, private or link-local address; the server must be started with --allow-private-network`,
  );

/**
 * Resolves `host` and returns the addresses a connection may use, refusing
 * (403) non-public ones unless the policy allows private networks. Connect to
 * one of the returned addresses, not to the name again (DNS rebinding).
 */
export async function resolveAllowedAddresses(policy: InputPolicy, host: string): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  // localhost and *.localhost are loopback whatever a resolver says (RFC 6761).
  if (!policy.privateNetwork && isLoopbackHost(bare)) throw refusePrivate(host, bare);
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(bare) ? [bare] : await (policy.resolve ?? systemResolve)(bare);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) throw badRequest(`Cannot resolve host ${host}: check the URL's host name`);
  if (!policy.privateNetwork) {
    const blocked = addresses.find(isNonPublicAddress);
    if (blocked !== undefined) throw refusePrivate(host, blocked);
  }
  return addresses;
}

/** Refuses http:// to a non-loopback host unless the policy allows plain HTTP. */
export function checkScheme(policy: InputPolicy, url: URL): void {
  if (url.protocol === 'http:' && !policy.plainHttp && !isLoopbackHost(url.hostname)) {
    throw forbidden(`Refusing plain http:// for ${url.hostname}: use https://, or start the server with --allow-http`);
  }
}

/**
 * The real path of a local file or directory the input names, when the policy
 * allows it: anywhere ('any'), or below one of the allowed roots after resolving
 * symlinks. Throws 403 otherwise (and never says whether the path exists).
 */
export async function allowedLocalPath(policy: InputPolicy, target: string): Promise<string> {
  if (policy.localRoots === 'any') return path.resolve(target);
  const refuse = () =>
    forbidden('Local paths and file:// URLs are not allowed on this server (start it with --allow-local DIR to allow a directory)');
  if (policy.localRoots.length === 0 || !path.isAbsolute(target)) throw refuse();
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    throw refuse();
  }
  for (const root of policy.localRoots) {
    const relative = path.relative(root, real);
    if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) return real;
  }
  throw refuse();
}

/** The real paths of `--allow-local` directories (each must exist and be a directory, else a UsageError naming it). */
export async function resolveLocalRoots(dirs: readonly string[]): Promise<string[]> {
  return Promise.all(
    dirs.map(async (dir) => {
      let real: string;
      try {
        real = await realpath(path.resolve(dir));
      } catch {
        throw new UsageError(`--allow-local ${dir}: no such directory`, { hint: 'Pass an existing directory (repeat the flag for several).' });
      }
      if (!(await stat(real)).isDirectory()) {
        throw new UsageError(`--allow-local ${dir}: not a directory`, { hint: 'Pass a directory; files below it become readable to requests.' });
      }
      return real;
    }),
  );
}

/** What `serve --allow-local DIR… --allow-private-network --allow-http` opens; SERVE_POLICY without flags. */
export interface ServePolicyOptions {
  allowLocal?: readonly string[] | undefined;
  allowPrivateNetwork?: boolean | undefined;
  allowHttp?: boolean | undefined;
}

export async function servePolicy(options: ServePolicyOptions): Promise<InputPolicy> {
  const roots = await resolveLocalRoots(options.allowLocal ?? []);
  return Object.freeze({
    localRoots: Object.freeze([...new Set(roots)]) as readonly string[],
    privateNetwork: options.allowPrivateNetwork === true,
    plainHttp: options.allowHttp === true,
  });
}
