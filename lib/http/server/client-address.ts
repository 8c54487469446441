/**
 * Which client a request counts against for rate limits. Route handlers get no socket in
 * Next, and Next copies a client's own X-Forwarded-For through untouched, so that header is
 * only believed when something trustworthy wrote it:
 *
 * - scripts/serve.mjs (what `npm start` runs) overwrites X-Forwarded-For with the socket's
 *   address, or with CMP_TRUST_PROXY set appends it to the chain the proxies built, and says
 *   so with CMP_SERVER=serve in its own environment, which no client can set;
 * - with CMP_TRUST_PROXY=N the entry N places from the right is the client the outermost
 *   trusted proxy saw; entries left of it are whatever the client claimed and are ignored.
 *
 * Anything else (plain `next start` with no trusted proxy) gives the shared key "unknown", so
 * forging a header never buys a fresh bucket; the global caps still apply.
 */
import "server-only";
import { trustedProxyHops } from "./deployment";
import type { Env } from "./deployment";

/** The key of a request whose client cannot be told apart. */
export const UNKNOWN_CLIENT = "unknown";

/** A short, normalised client key for rate limits. */
export function clientKey(headers: Headers, env: Env): string {
  if (env.CMP_SERVER !== "serve") return UNKNOWN_CLIENT;
  const chain = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  // serve.mjs appended the socket address last; each trusted proxy vouches for one more to its left.
  const entry = chain[chain.length - 1 - trustedProxyHops(env)];
  return entry ? entry.toLowerCase().slice(0, 64) : UNKNOWN_CLIENT;
}
