/**
 * Which URLs the MCP proxy may forward to. Pure: no DNS here.
 *
 * Policy:
 * - http and https only; no credentials in the URL (they would end up in logs).
 * - "forbidden" addresses (link-local, cloud metadata, unspecified, multicast) and metadata
 *   host names are refused always, even when allow-listed: nothing legitimate lives there.
 * - "private" addresses (loopback, RFC 1918, unique local, CGNAT) and localhost names are
 *   refused unless allow-listed, so a hosted playground cannot be used to reach its own network.
 * - public addresses pass, unless `allowListOnly` turns the allow-list into the only way in.
 *
 * Host names are checked twice: by name here, and by resolved address at connect time
 * (`checkResolvedAddress`, used by guarded-lookup.ts). Checking the address the socket actually
 * connects to is what beats DNS rebinding; a resolve-then-fetch check would not.
 * Numeric IPv4 forms (hex, octal, single integer, "127.1") need no code of their own: the
 * WHATWG URL parser normalises them to dotted decimal before we look.
 */
import { classifyAddress, ipInCidr, parseCidr } from "./ip-ranges";

/** Outcome of a guard check; `reason` is written for a person. */
export type GuardResult = { ok: true } | { ok: false; reason: string };

/** Guard configuration. */
export interface ProxyGuardOptions {
  /**
   * Exceptions for private targets: host names ("localhost"), suffixes ("*.corp.example"),
   * IP addresses ("127.0.0.1", "::1") and CIDR ranges ("10.0.0.0/8").
   */
  allowList?: readonly string[];
  /** When true, only allow-listed targets pass, public ones included. */
  allowListOnly?: boolean;
}

// Metadata services reachable by name on the big clouds.
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"]);

function normaliseHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  return h.endsWith(".") ? h.slice(0, -1) : h;
}

function isLocalhostName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || host === "localhost.localdomain";
}

/** True when the host name or the address is covered by an allow-list entry. */
function isAllowListed(host: string, address: string | null, allowList: readonly string[]): boolean {
  for (const raw of allowList) {
    const entry = normaliseHost(raw.trim());
    if (entry === "") continue;
    if (parseCidr(entry)) {
      if (address !== null && ipInCidr(address, entry)) return true;
      continue;
    }
    if (entry.startsWith("*.")) {
      if (host.endsWith(entry.slice(1))) return true;
      continue;
    }
    if (host === entry) return true;
  }
  return false;
}

/** Checks a proxy target URL by its text: scheme, credentials, host name and literal address. */
export function checkProxyTarget(url: string | URL, options: ProxyGuardOptions = {}): GuardResult {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return { ok: false, reason: "the target is not a valid absolute URL" };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { ok: false, reason: `only http and https targets are proxied, not ${parsed.protocol.replace(/:$/, "")}` };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return { ok: false, reason: "credentials in the URL are refused; send them as a header instead" };
  }
  const host = normaliseHost(parsed.hostname);
  const allowList = options.allowList ?? [];
  if (METADATA_HOSTS.has(host)) {
    return { ok: false, reason: `${host} is a cloud metadata service` };
  }
  const cls = classifyAddress(host);
  const listed = isAllowListed(host, cls ? host : null, allowList);
  if (cls?.kind === "forbidden") {
    return { ok: false, reason: `${host} is ${cls.label}` };
  }
  if (cls?.kind === "private" || isLocalhostName(host)) {
    if (listed) return { ok: true };
    const label = cls?.kind === "private" ? cls.label : "loopback";
    return { ok: false, reason: `${host} is ${label}; add it to the proxy allow-list to reach it` };
  }
  if (options.allowListOnly && !listed) {
    return { ok: false, reason: `${host} is not on the proxy allow-list` };
  }
  return { ok: true };
}

/**
 * Checks an address a host name resolved to, at connect time. Forbidden addresses are refused
 * always; private ones only pass when the name or the address is allow-listed.
 */
export function checkResolvedAddress(hostname: string, address: string, options: ProxyGuardOptions = {}): GuardResult {
  const host = normaliseHost(hostname);
  const cls = classifyAddress(address);
  if (!cls) return { ok: false, reason: `${host} resolved to "${address}", which is not an IP address` };
  if (cls.kind === "forbidden") {
    return { ok: false, reason: `${host} resolves to ${address}, which is ${cls.label}` };
  }
  if (cls.kind === "private" && !isAllowListed(host, address, options.allowList ?? [])) {
    return { ok: false, reason: `${host} resolves to ${address}, which is ${cls.label}; add it to the proxy allow-list to reach it` };
  }
  return { ok: true };
}
