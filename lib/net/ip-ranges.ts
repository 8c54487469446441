/**
 * IP address parsing and classification for the proxy guard. Pure.
 * Every address is handled as 16 bytes; IPv4 as IPv4-mapped IPv6 (::ffff:a.b.c.d), so
 * one range table covers both families and mapped forms cannot slip past a v4-only rule.
 */

/** "forbidden" is never proxied; "private" only when allow-listed; "public" by default. */
export type AddressClass = { kind: "public" } | { kind: "private" | "forbidden"; label: string };

interface Range {
  bytes: Uint8Array;
  prefix: number;
  kind: "private" | "forbidden";
  label: string;
}

/** Parses dotted-decimal IPv4 into 4 bytes, or null. Strict: URL parsing already normalised hex/octal forms. */
function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i] ?? "";
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    out[i] = n;
  }
  return out;
}

function parseGroups(text: string): number[] | null {
  if (text === "") return [];
  const groups: number[] = [];
  for (const group of text.split(":")) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    groups.push(parseInt(group, 16));
  }
  return groups;
}

/** Parses IPv6 (with or without brackets, with an optional dotted IPv4 tail) into 16 bytes, or null. */
function parseIpv6(input: string): Uint8Array | null {
  let text = input.startsWith("[") && input.endsWith("]") ? input.slice(1, -1) : input;
  if (text.includes("%")) return null; // zone ids never appear in URLs or DNS answers
  let tail: Uint8Array | null = null;
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    tail = parseIpv4(text.slice(lastColon + 1));
    if (!tail) return null;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0] ?? "");
  const rest = halves.length === 2 ? parseGroups(halves[1] ?? "") : [];
  if (!head || !rest) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  if (tail) out.set(tail, 12);
  return out;
}

/** Parses an IPv4 or IPv6 literal into 16 bytes (IPv4 becomes ::ffff:a.b.c.d), or null. */
export function parseIp(text: string): Uint8Array | null {
  const v4 = parseIpv4(text);
  if (v4) return mapV4(v4);
  return parseIpv6(text);
}

function mapV4(v4: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  out[10] = 0xff;
  out[11] = 0xff;
  out.set(v4, 12);
  return out;
}

/** True when `ip` lies inside `bytes/prefix`. */
function inPrefix(ip: Uint8Array, bytes: Uint8Array, prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit++) {
    const i = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((ip[i] ?? 0) & mask) !== ((bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** Parses "10.0.0.0/8", "fd00::/8" or a bare address (a /32 or /128) into a prefix, or null. */
export function parseCidr(text: string): { bytes: Uint8Array; prefix: number } | null {
  const [addr = "", len] = text.split("/");
  const bytes = parseIp(addr);
  if (!bytes) return null;
  const isV4 = parseIpv4(addr) !== null;
  const max = isV4 ? 32 : 128;
  const n = len === undefined ? max : Number(len);
  if (!Number.isInteger(n) || n < 0 || n > max) return null;
  return { bytes, prefix: isV4 ? n + 96 : n };
}

/** True when the address `ip` (text) lies inside the CIDR `cidr` (text). */
export function ipInCidr(ip: string, cidr: string): boolean {
  const addr = parseIp(ip);
  const range = parseCidr(cidr);
  return addr !== null && range !== null && inPrefix(addr, range.bytes, range.prefix);
}

function range(cidr: string, kind: Range["kind"], label: string): Range {
  const parsed = parseCidr(cidr);
  if (!parsed) throw new Error(`bad built-in range ${cidr}`);
  return { ...parsed, kind, label };
}

// First match wins: the specific metadata addresses come before the broad ranges holding them.
const RANGES: readonly Range[] = [
  range("169.254.0.0/16", "forbidden", "link-local (cloud metadata services live there)"),
  range("100.100.100.200/32", "forbidden", "the Alibaba Cloud metadata address"),
  range("192.0.0.192/32", "forbidden", "the Oracle Cloud metadata address"),
  range("0.0.0.0/8", "forbidden", "unspecified ('this host')"),
  range("224.0.0.0/4", "forbidden", "multicast"),
  range("240.0.0.0/4", "forbidden", "reserved or broadcast"),
  range("fd00:ec2::254/128", "forbidden", "the AWS metadata address (IPv6)"),
  range("::/128", "forbidden", "unspecified"),
  range("fe80::/10", "forbidden", "link-local"),
  range("ff00::/8", "forbidden", "multicast"),
  range("127.0.0.0/8", "private", "loopback"),
  range("10.0.0.0/8", "private", "private (RFC 1918)"),
  range("172.16.0.0/12", "private", "private (RFC 1918)"),
  range("192.168.0.0/16", "private", "private (RFC 1918)"),
  range("100.64.0.0/10", "private", "shared address space (carrier-grade NAT)"),
  range("192.0.0.0/24", "private", "IETF protocol assignments"),
  range("198.18.0.0/15", "private", "benchmarking"),
  range("::1/128", "private", "loopback"),
  range("fc00::/7", "private", "unique local"),
  range("fec0::/10", "private", "site-local"),
  // RFC 8215: a network's own NAT64 prefix; what sits behind it is that network's business.
  range("64:ff9b:1::/48", "private", "the local-use NAT64 prefix (RFC 8215)"),
];

// IPv6 forms that carry an IPv4 address inside: classify the embedded address instead.
const EMBEDDED_V4: ReadonlyArray<{ bytes: Uint8Array; prefix: number; offset: number; label: string }> = [
  { ...parseCidrOrThrow("64:ff9b::/96"), offset: 12, label: "NAT64" },
  { ...parseCidrOrThrow("::/96"), offset: 12, label: "IPv4-compatible" },
  // SIIT's IPv4-translated form, ::ffff:0:a.b.c.d (RFC 2765); not the mapped ::ffff:a.b.c.d.
  { ...parseCidrOrThrow("::ffff:0:0:0/96"), offset: 12, label: "IPv4-translated" },
  { ...parseCidrOrThrow("2002::/16"), offset: 2, label: "6to4" },
];

function parseCidrOrThrow(cidr: string): { bytes: Uint8Array; prefix: number } {
  const parsed = parseCidr(cidr);
  if (!parsed) throw new Error(`bad built-in range ${cidr}`);
  return parsed;
}

function isMappedV4(ip: Uint8Array): boolean {
  return ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;
}

function classifyBytes(ip: Uint8Array): AddressClass {
  if (!isMappedV4(ip)) {
    const allZeroHead = ip.slice(0, 12).every((b) => b === 0);
    for (const form of EMBEDDED_V4) {
      // :: and ::1 sit inside ::/96 but are themselves, not embedded IPv4.
      if (form.label === "IPv4-compatible" && allZeroHead && ip[12] === 0 && ip[13] === 0 && ip[14] === 0) continue;
      if (inPrefix(ip, form.bytes, form.prefix)) {
        const inner = classifyBytes(mapV4(ip.slice(form.offset, form.offset + 4)));
        return inner.kind === "public" ? inner : { kind: inner.kind, label: `${inner.label}, embedded in a ${form.label} address` };
      }
    }
  }
  for (const r of RANGES) {
    if (inPrefix(ip, r.bytes, r.prefix)) return { kind: r.kind, label: r.label };
  }
  return { kind: "public" };
}

/** Classifies an IP literal (v4, v6, bracketed, mapped); null when `text` is not an IP address. */
export function classifyAddress(text: string): AddressClass | null {
  const ip = parseIp(text);
  return ip ? classifyBytes(ip) : null;
}
