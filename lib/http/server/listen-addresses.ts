/**
 * Which addresses this process listens on, read from Node's handle list. Undocumented but
 * long-stable API; when it is missing the answer is undefined and every caller fails closed.
 * Route handlers run in the process that owns the HTTP server (`next start`, `next dev` and
 * scripts/serve.mjs alike), so the app's own socket is among them.
 */
import "server-only";
import { ipInCidr } from "../../net/ip-ranges";

/** Addresses the process listens on at a port (injected in tests). */
export type ListenAddresses = (port: number) => readonly string[] | undefined;

/** True for 127.0.0.0/8 and ::1, in plain or IPv4-mapped form. */
export function isLoopbackAddress(address: string): boolean {
  return ipInCidr(address, "127.0.0.0/8") || ipInCidr(address, "::1/128");
}

// Every open socket is a handle, so a walk costs more the busier the server is, and the proxy
// asks on every request. Listening sockets do not change under a running server: a found answer
// is kept for a moment (an empty one is not, so a server that starts listening is seen at once).
const LISTEN_CACHE_MS = 2_000;
const listenCache = new Map<number, { addresses: string[]; at: number }>();

/** Addresses of the listening TCP servers in this process bound to `port`. */
export function processListenAddresses(port: number): string[] | undefined {
  const cached = listenCache.get(port);
  if (cached && Date.now() - cached.at < LISTEN_CACHE_MS) return cached.addresses;
  const found = walkListenAddresses(port);
  if (found && found.length > 0) listenCache.set(port, { addresses: found, at: Date.now() });
  return found;
}

function walkListenAddresses(port: number): string[] | undefined {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.();
  if (!Array.isArray(handles)) return undefined;
  const out: string[] = [];
  for (const handle of handles) {
    const server = handle as { listening?: unknown; address?: unknown };
    if (server?.listening !== true || typeof server.address !== "function") continue;
    const address = (server.address as () => unknown).call(server);
    if (address && typeof address === "object" && "port" in address && "address" in address && address.port === port) {
      out.push(String(address.address));
    }
  }
  return out;
}

/** The port a request reached: from its Host header, else the URL's scheme default. */
export function requestPort(request: Request): number {
  const url = new URL(request.url);
  const host = request.headers.get("host") ?? url.host;
  const match = /:(\d{1,5})$/.exec(host);
  if (match?.[1]) return Number(match[1]);
  return url.protocol === "https:" ? 443 : 80;
}

/** True when every socket this process listens on at the request's port is loopback. */
export function listensOnlyOnLoopback(request: Request, listen: ListenAddresses = processListenAddresses): boolean {
  const addresses = listen(requestPort(request));
  return addresses !== undefined && addresses.length > 0 && addresses.every(isLoopbackAddress);
}
