/**
 * Which client a request counts against for rate limiting. Route handlers get no socket
 * address in Next, but Next fills `x-forwarded-for` with it when the header is absent. The
 * rightmost entry is used: a reverse proxy appends the address it saw, so the rightmost entry
 * is the one the nearest trusted hop vouches for, while leftmost entries are whatever the
 * client claimed. Without a proxy a client can still send its own header, which is why the
 * routes also keep a global limit.
 */

/** The key used when a request names no client at all. */
export const UNKNOWN_CLIENT = "unknown";

/** A short, normalised client key from a request's headers. */
export function clientKeyFrom(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").map((part) => part.trim()).filter((part) => part !== "").pop();
  const candidate = last ?? headers.get("x-real-ip")?.trim();
  if (!candidate) return UNKNOWN_CLIENT;
  return candidate.toLowerCase().slice(0, 64);
}
