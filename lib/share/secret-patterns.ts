/**
 * Well-known credential shapes (API keys and tokens by their published prefixes, JWTs, auth
 * schemes). Used two ways: args and URL query values that match are withheld from a share, and
 * free text the person wrote (code, prompt, messages) is scanned so the Share dialog can warn
 * before a key leaves in a link. Free text is never rewritten: silently editing someone's code
 * would be worse than telling them. Pure.
 */
import { isCredentialValue } from "../mcp/redact";

const TOKEN_PATTERNS: readonly RegExp[] = [
  /\b(?:sk|rk)-[A-Za-z0-9_-]{16,}/, // OpenAI, Anthropic (sk-ant-…), Stripe secret / restricted keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}/, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bglpat-[A-Za-z0-9_-]{20,}/, // GitLab
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/, // Slack
  /\bAKIA[0-9A-Z]{16}\b/, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{30,}/, // Google API key
  /\bhf_[A-Za-z0-9]{30,}/, // Hugging Face
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, // JWT
  /\b(?:bearer|basic)\s+(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/i, // a digit: "basic configuration" is prose
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
