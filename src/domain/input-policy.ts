/**
 * The shape of an input policy and its two fixed values, apart from the checks in
 * policy.ts (which load ipaddr.js): every local command needs `LOCAL_POLICY`, few
 * need the checks. See policy.ts for what the policy means.
 */
export interface InputPolicy {
  /** Local paths and file:// URLs: 'any', or only below these directories (real paths), or none (empty). */
  localRoots: 'any' | readonly string[];
  /** Loopback, private, link-local and other non-public addresses may be fetched. */
  privateNetwork: boolean;
  /** Plain http:// may be used for hosts that are not loopback. */
  plainHttp: boolean;
  /** How host names are resolved (default: the system resolver, `dns.lookup` with all addresses). Tests pass a stub. */
  resolve?: ((host: string) => Promise<string[]>) | undefined;
}

export const LOCAL_POLICY: InputPolicy = Object.freeze({ localRoots: 'any', privateNetwork: true, plainHttp: true });

/** `serve` without any --allow-* flag. */
export const SERVE_POLICY: InputPolicy = Object.freeze({ localRoots: [], privateNetwork: false, plainHttp: false });
