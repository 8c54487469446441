/**
 * A DNS lookup for node:http(s) that refuses forbidden and non-allow-listed private addresses.
 * Passed as the `lookup` option, it runs when the socket connects, so the address checked is
 * the address used: a name that resolves to a public address for a check and to 169.254.169.254
 * a moment later (DNS rebinding) is still refused. Node skips `lookup` for IP literals; those are
 * refused earlier by `checkProxyTarget`.
 */
import "server-only";
import { promises as dns } from "node:dns";
import type { LookupAddress, LookupOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import { checkResolvedAddress } from "../proxy-guard";
import type { ProxyGuardOptions } from "../proxy-guard";

/** Resolves a name to every address; injected in tests. */
export type ResolveAll = (hostname: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>;

/** Error code the proxy maps to a 403 "refused" answer. */
export const GUARD_REFUSED_CODE = "EMCPGUARD";

/** The system resolver (getaddrinfo, like a normal connection). */
export const systemResolveAll: ResolveAll = (hostname, family) => dns.lookup(hostname, { all: true, family });

function familyOf(options: LookupOptions): 0 | 4 | 6 {
  const f = options.family;
  if (f === 4 || f === "IPv4") return 4;
  if (f === 6 || f === "IPv6") return 6;
  return 0;
}

/** Builds a `lookup` that resolves with `resolveAll` and refuses the connection if any address fails the guard. */
export function createGuardedLookup(options: ProxyGuardOptions, resolveAll: ResolveAll = systemResolveAll): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolveAll(hostname, familyOf(lookupOptions)).then(
      (addresses) => {
        // Refuse when any answer is bad, not only the first: the socket may try them all
        // (happy eyeballs), and a mixed answer is itself a rebinding smell.
        for (const a of addresses) {
          const verdict = checkResolvedAddress(hostname, a.address, options);
          if (!verdict.ok) {
            callback(Object.assign(new Error(verdict.reason), { code: GUARD_REFUSED_CODE }), "");
            return;
          }
        }
        const first = addresses[0];
        if (!first) {
          callback(Object.assign(new Error(`${hostname} has no addresses`), { code: "ENOTFOUND" }), "");
        } else if (lookupOptions.all) {
          callback(null, addresses);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), "");
      },
    );
  };
}
