/**
 * Credential scrubbing for free text (console lines, error messages, strings inside results,
 * the code itself), where redactSecrets' rules cannot see a key or only look at a whole string:
 * secret-named assignments, auth schemes, and the credential shapes of patterns.ts. Complements
 * redact.ts, which handles structured values. Pure.
 */
import { removeSecrets, SCHEME_CREDENTIAL } from "./patterns";
import { isCredentialValue, isSecretKey, redactSecrets, REDACTED } from "./redact";

// `name: "value"`, `name = 'value'`, `"name":"value"`: a quoted literal after a key.
const QUOTED_ASSIGNMENT = /(["']?)([A-Za-z_$][\w$-]*)\1(\s*[:=]\s*)(["'`])((?:(?!\4)[^\\\n]|\\.)*)\4/g;
// `name=value` / `name: value` without quotes, as in a header dump or a query string.
const BARE_ASSIGNMENT = /\b([A-Za-z_][\w-]*)(\s*[:=]\s*)([^\s"'`,;&)}\]]{6,})/g;
// A string literal in code (single line).
const STRING_LITERAL = /(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1/g;
const SCHEMES = /^(bearer|basic|token)$/i;
// Every rule needs a separator, a scheme word or a known key prefix: text without one is
// returned untouched, which spares most short values ("item-42") every regular-expression pass.
const MAYBE_CREDENTIAL = /[:=]|bearer|basic|token|sk-|rk-|gh[pousr]_|github_pat_|glpat-|xox|AKIA|AIza|hf_|eyJ/i;

/**
 * Replaces credential-looking text with "[redacted]". `code: true` is for source text: an
 * assignment counts only when its value is a quoted literal or inside one, so
 * `const token = getToken()` stays runnable while `token: "ghp_…"` is hidden.
 */
export function scrubText(text: string, options: { code?: boolean } = {}): string {
  if (!MAYBE_CREDENTIAL.test(text)) return text;
  let out = text.replace(SCHEME_CREDENTIAL, (_match, scheme: string, space: string) => `${scheme}${space}${REDACTED}`);
  out = out.replace(QUOTED_ASSIGNMENT, (match, q: string, key: string, sep: string, quote: string, value: string) =>
    isSecretKey(key) && value.length > 0 && value !== REDACTED ? `${q}${key}${q}${sep}${quote}${REDACTED}${quote}` : match,
  );
  out = removeSecrets(out);
  if (options.code) return out.replace(STRING_LITERAL, (_m, quote: string, body: string) => `${quote}${scrubBare(body)}${quote}`);
  return scrubBare(out);
}

function scrubBare(text: string): string {
  return text.replace(BARE_ASSIGNMENT, (match, key: string, sep: string, value: string) =>
    isSecretKey(key) && value !== REDACTED && !SCHEMES.test(value) ? `${key}${sep}${REDACTED}` : match,
  );
}

// isSecretKey splits a key into words with regular expressions; run records repeat the same few
// keys thousands of times, so answers are cached (bounded, keys are short).
const secretKeys = new Map<string, boolean>();
const SECRET_KEY_CACHE = 10_000;

function secretKey(key: string): boolean {
  let secret = secretKeys.get(key);
  if (secret === undefined) {
    secret = isSecretKey(key);
    if (secretKeys.size < SECRET_KEY_CACHE) secretKeys.set(key, secret);
  }
  return secret;
}

/**
 * redactSecrets' rules (secret keys, credential values, "[circular]") plus scrubText on every
 * string, in one walk with cached key checks: a 10 000-call record is redacted several times
 * faster than with redactSecrets and a second walk. Returns a copy; never mutates.
 */
export function redactDeep<T>(value: T): T {
  return redactWalk(value, new Set()) as T;
}

function redactWalk(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value === "string") return isCredentialValue(value) ? REDACTED : scrubText(value);
  if (value === null || typeof value !== "object") return value;
  if (typeof Headers !== "undefined" && value instanceof Headers) return redactSecrets(value);
  if (ancestors.has(value)) return "[circular]";
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactWalk(item, ancestors));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty: a "__proto__" key from JSON.parse must stay a key, not become the prototype.
      Object.defineProperty(out, key, { value: secretKey(key) ? REDACTED : redactWalk(item, ancestors), enumerable: true, writable: true, configurable: true });
    }
    return out;
  } finally {
    // A value shared by two branches is not a cycle: only ancestors count.
    ancestors.delete(value);
  }
}
