/**
 * How this app is deployed, read from the environment and the listening socket. Two modes:
 *
 * - **local**: the app listens only on loopback and CMP_MODE does not say "hosted". It serves
 *   the person at this machine: the stdio bridge may run (with the terminal's token), and the
 *   MCP proxy and model base URLs may reach loopback and private addresses (their own Ollama,
 *   their own MCP server without CORS).
 * - **hosted**: anything else, or CMP_MODE=hosted (set it behind a reverse proxy on the same
 *   host, whose socket looks local). The stdio bridge is off, private addresses are refused,
 *   the server's model keys need CMP_ACCESS_SECRET, and the proxy is rate-limited and capped.
 *
 * Settings (all optional):
 *   CMP_MODE            local | hosted (default: local exactly when listening on loopback only)
 *   CMP_ALLOWED_HOSTS   extra Host names served, comma-separated (DNS rebinding protection)
 *   CMP_LISTEN_HOST     the -H address scripts/serve.mjs listens on; allowed as a Host too
 *   CMP_TRUST_PROXY     number of reverse proxies in front whose X-Forwarded-For is believed
 *   CMP_ACCESS_SECRET   the secret that unlocks the server's model keys in hosted mode
 */
import "server-only";
import { isLoopbackAddress, listensOnlyOnLoopback, processListenAddresses } from "./listen-addresses";
import type { ListenAddresses } from "./listen-addresses";

/** Process environment, as the routes read it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The two deployment modes. */
export type AppMode = "local" | "hosted";

/** The Host names every instance serves: the loopback names a browser uses for a local app. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

function list(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((entry) => normaliseHostName(entry.trim()))
    .filter((entry) => entry !== "");
}

/** A Host header or host name without port, lower-cased, without a trailing dot; IPv6 keeps its brackets. */
export function normaliseHostName(host: string): string {
  let name = host.trim().toLowerCase();
  if (name.startsWith("[")) {
    const end = name.indexOf("]");
    name = end === -1 ? name : name.slice(0, end + 1);
  } else if (name.split(":").length === 2) {
    name = name.slice(0, name.indexOf(":"));
  } else if (name.includes(":")) {
    name = `[${name}]`; // a bare IPv6 address, as in CMP_LISTEN_HOST=::1
  }
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

/** Host names this instance answers to. An unspecified listen address (0.0.0.0, ::) names no host. */
export function allowedHosts(env: Env): ReadonlySet<string> {
  const listen = list(env.CMP_LISTEN_HOST).filter((name) => name !== "0.0.0.0" && name !== "[::]");
  return new Set([...LOOPBACK_HOSTS, ...listen, ...list(env.CMP_ALLOWED_HOSTS)]);
}

/** Strips quotes, brackets and a port from one forwarded-for entry ("[::1]:80", "1.2.3.4:5"). */
function forwardedAddress(entry: string): string {
  const value = entry.trim().replace(/^"|"$/g, "");
  const bracketed = /^\[([^\]]+)\]/.exec(value);
  if (bracketed?.[1]) return bracketed[1];
  return /^[\d.]+:\d+$/.test(value) ? (value.split(":")[0] ?? "") : value;
}

/** Client addresses named by proxy headers: x-forwarded-for, x-real-ip and Forwarded's `for=`. */
export function forwardedClients(headers: Headers): string[] {
  const out: string[] = [];
  for (const name of ["x-forwarded-for", "x-real-ip"]) {
    const value = headers.get(name);
    if (value !== null) out.push(...value.split(",").map(forwardedAddress));
  }
  const forwarded = headers.get("forwarded");
  if (forwarded !== null) {
    for (const match of forwarded.matchAll(/for=("[^"]*"|[^;,\s]+)/gi)) out.push(forwardedAddress(match[1] ?? ""));
  }
  return out.filter((address) => address !== "");
}

/** The first client a forwarding header names that is not this machine, if any. */
export function forwardedForOthers(headers: Headers): string | undefined {
  return forwardedClients(headers).find((address) => !isLoopbackAddress(address));
}

/**
 * The mode for this request: CMP_MODE=hosted wins; otherwise local exactly when every socket
 * at the request's port is loopback and no forwarding header names another machine (a relay
 * on this host that says whom it forwards for).
 */
export function appMode(request: Request, env: Env, listen: ListenAddresses = processListenAddresses): AppMode {
  if (/^hosted$/i.test(env.CMP_MODE?.trim() ?? "")) return "hosted";
  if (!listensOnlyOnLoopback(request, listen)) return "hosted";
  return forwardedForOthers(request.headers) === undefined ? "local" : "hosted";
}

/** A positive number from an environment setting, or `fallback` when it is unset, empty or not one. */
export function positiveSetting(text: string | undefined, fallback: number): number;
export function positiveSetting(text: string | undefined): number | undefined;
export function positiveSetting(text: string | undefined, fallback?: number): number | undefined {
  const value = Number(text);
  return text !== undefined && text.trim() !== "" && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** How many reverse proxies' X-Forwarded-For entries are believed (0: none). */
export function trustedProxyHops(env: Env): number {
  const raw = env.CMP_TRUST_PROXY?.trim() ?? "";
  if (/^(true|yes)$/i.test(raw)) return 1;
  const n = Number(raw);
  return raw !== "" && Number.isInteger(n) && n > 0 && n < 10 ? n : 0;
}
