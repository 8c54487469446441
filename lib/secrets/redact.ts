/**
 * Secret redaction for anything that may reach a log, the timeline, an export or a share
 * link: header sets and nested records. Pure; returns copies, never mutates.
 */

/** What a redacted value is replaced with. */
export const REDACTED = "[redacted]";

// Header names that are secrets whatever their words say.
const SECRET_NAMES = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "apikey", "x-auth-token", "auth"]);

// A key holding any of these words is a secret ("clientSecret", "db_password").
const SECRET_WORDS = new Set(["password", "passwd", "passphrase", "secret", "credential", "credentials", "cookie", "bearer", "authorization"]);

// Adjacent word pairs naming a key anywhere in the name ("x-api-key", "privateKey", "AWS_ACCESS_KEY_ID").
const SECRET_PAIRS = new Set(["api key", "private key", "access key", "signing key", "secret key", "client key"]);

// Values that carry a credential whatever their key is called.
const CREDENTIAL_VALUE = /^\s*(bearer|basic|token)\s+\S+/i;

/** Splits "x-api-key", "apiKey", "API_KEY" and "APIKey" into lower-case words. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/**
 * True when a header or record key names a secret. "token" counts only as the last word,
 * so `access_token` is a secret while `max_tokens`, `tokenCount` and `token_type` are not.
 */
export function isSecretKey(name: string): boolean {
  if (SECRET_NAMES.has(name.toLowerCase())) return true;
  const parts = words(name);
  if (parts.length === 0) return false;
  if (parts.some((w) => SECRET_WORDS.has(w) || w === "apikey")) return true;
  if (parts[parts.length - 1] === "token") return true;
  for (let i = 0; i + 1 < parts.length; i++) {
    if (SECRET_PAIRS.has(`${parts[i]} ${parts[i + 1]}`)) return true;
  }
  return false;
}

/** True when a string value is itself a credential ("Bearer abc…"). */
export function isCredentialValue(value: string): boolean {
  return CREDENTIAL_VALUE.test(value);
}

/** Header sets as they arrive: Fetch `Headers`, Node's header records, or entry lists. */
export type HeaderSource = Headers | Record<string, string | readonly string[] | number | undefined> | Iterable<readonly [string, string]>;

function headerEntries(headers: HeaderSource): Array<[string, string]> {
  if (typeof Headers !== "undefined" && headers instanceof Headers) return [...headers.entries()];
  if (Symbol.iterator in headers) return [...(headers as Iterable<readonly [string, string]>)].map(([k, v]) => [k, v]);
  const out: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out.push([key, typeof value === "string" ? value : typeof value === "number" ? String(value) : value.join(", ")]);
  }
  return out;
}

/** Copies a header set into a plain record with secret values replaced by "[redacted]". */
export function redactHeaders(headers: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of headerEntries(headers)) {
    setOwnProperty(out, key, isSecretKey(key) || isCredentialValue(value) ? REDACTED : value);
  }
  return out;
}

/**
 * Deep copy of a JSON-like value with secret keys and credential-looking strings redacted.
 * `Headers` instances become plain records; cycles become "[circular]".
 */
export function redactSecrets<T>(value: T): T {
  return redactValue(value, new WeakSet()) as T;
}

function redactValue(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return isCredentialValue(value) ? REDACTED : value;
  if (value === null || typeof value !== "object") return value;
  if (typeof Headers !== "undefined" && value instanceof Headers) return redactHeaders(value);
  if (seen.has(value)) return "[circular]";
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, seen));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      setOwnProperty(out, key, isSecretKey(key) ? REDACTED : redactValue(item, seen));
    }
    return out;
  } finally {
    // A value shared by two branches is not a cycle: only ancestors count.
    seen.delete(value);
  }
}

/**
 * Assignment would treat a `__proto__` key (legal in JSON.parse output) as the prototype
 * setter: the key would vanish from the copy and its value become the copy's prototype.
 */
function setOwnProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
