/**
 * What counts as a secret in text, in one place for the whole app (the timeline, share links,
 * logs, model errors, the stdio bridge's messages): well-known credential shapes (API keys and
 * tokens by their published prefixes, JWTs, auth schemes) and the values a request is known to
 * carry. Share links withhold args and query values that match, and warn about free text the
 * person wrote (never rewriting their code); everything else removes them (`removeSecrets`).
 * Pure.
 */
import { isCredentialValue, REDACTED } from "./redact";

/** Known secret values shorter than this are left in text: "1", "on" and "dev" are settings, and replacing them garbles it. */
export const MIN_SECRET_LENGTH = 4;

/**
 * An auth scheme followed by a credential, anywhere in text: "Bearer abc.def", "token ghp_…".
 * The value must look like a token (a digit or token punctuation, or 20+ characters), so prose
 * ("the basic configuration", "the token expired") is left alone. Global: callers use `replace`.
 */
export const SCHEME_CREDENTIAL = /\b(bearer|basic|token)(\s+)((?=[A-Za-z0-9_~+/=-]*[\d.~+/=])[A-Za-z0-9._~+/=-]{6,}|[A-Za-z0-9._~+/=-]{20,})/gi;

const TOKEN_PATTERNS: readonly RegExp[] = [
  /\b(?:sk|rk)-[A-Za-z0-9_-]{8,}/, // OpenAI, Anthropic (sk-ant-…), Stripe secret / restricted keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}/, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bglpat-[A-Za-z0-9_-]{20,}/, // GitLab
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/, // Slack
  /\bAKIA[0-9A-Z]{16}\b/, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{30,}/, // Google API key
  /\bhf_[A-Za-z0-9]{30,}/, // Hugging Face
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, // JWT
  new RegExp(SCHEME_CREDENTIAL.source, "i"),
];

/** True when the text holds something shaped like a credential. */
export function looksLikeSecret(text: string): boolean {
  return isCredentialValue(text) || TOKEN_PATTERNS.some((pattern) => pattern.test(text));
}

/** Where in a text a credential-shaped string sits: 1-based line, for a warning. */
export function secretLines(text: string): number[] {
  const lines: number[] = [];
  text.split("\n").forEach((line, index) => {
    if (looksLikeSecret(line)) lines.push(index + 1);
  });
  return lines;
}

const TOKEN_PATTERNS_GLOBAL = TOKEN_PATTERNS.map((pattern) => new RegExp(pattern.source, `${pattern.flags}g`));

/**
 * `text` with every known secret value (at least MIN_SECRET_LENGTH characters, longest first,
 * so a key containing another is removed whole) and every credential-shaped string replaced by
 * "[redacted]". For anything echoed back: provider errors, a child's stderr, messages.
 */
export function removeSecrets(text: string, known: Iterable<string> = []): string {
  const values = [...new Set(known)].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  let out = text;
  for (const value of values) out = out.split(value).join(REDACTED);
  for (const pattern of TOKEN_PATTERNS_GLOBAL) out = out.replace(pattern, REDACTED);
  return out;
}
