/**
 * One table of what counts as a secret in text, checked against every place that removes or
 * flags secrets: they used to disagree (an `sk-` key counted from 8 characters in one, 16 in
 * another; a known value from 4 in one, 6 in another).
 */
import { describe, expect, it } from "vitest";
import { scrubSecrets } from "@/lib/mcp/stdio/stdio-errors";
import { redact as redactModelError } from "@/lib/model/model-errors";
import { looksLikeSecret, MIN_SECRET_LENGTH, removeSecrets } from "@/lib/secrets/patterns";
import { REDACTED } from "@/lib/secrets/redact";
import { scrubText } from "@/lib/secrets/scrub";

// [text, is it a secret]
const TABLE: Array<[string, boolean]> = [
  ["sk-abcdefgh", true],
  ["key sk-proj-0123456789abcdefghij here", true],
  ["sk-ant-api03-abcdefghijklmnop", true],
  ["rk_live is not it, rk-12345678 is", true],
  ["ghp_0123456789abcdefghijABCDEFGHIJ", true],
  ["github_pat_11ABCDEFG0123456789_abcdefghij", true],
  ["glpat-abcdefghij0123456789", true],
  ["xoxb-1234567890-abcdef", true],
  ["AKIAABCDEFGHIJKLMNOP", true],
  ["AIzaSyA0123456789abcdefghijklmnopqrstu", true],
  ["hf_abcdefghijklmnopqrstuvwxyz0123", true],
  ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlMTIz", true],
  ["Authorization: Bearer abc123def456", true],
  ["sk-short", false],
  ["risk-assessment-2024", false],
  ["the token expired", false],
  ["uses the basic configuration", false],
  ["max_tokens: 1000", false],
  ["plain prose with no key", false],
];

describe("what counts as a secret", () => {
  it.each(TABLE)("%j → %s, everywhere", (text, secret) => {
    expect(looksLikeSecret(text), "share links").toBe(secret);
    expect(removeSecrets(text).includes(REDACTED), "removeSecrets").toBe(secret);
    expect(scrubText(text).includes(REDACTED), "timeline and logs").toBe(secret);
    expect(redactModelError(text).includes(REDACTED), "model errors").toBe(secret);
    expect(scrubSecrets(text, []).includes(REDACTED), "stdio bridge messages").toBe(secret);
  });

  it("removes known values from MIN_SECRET_LENGTH characters on, the same in model errors and stdio messages", () => {
    expect(MIN_SECRET_LENGTH).toBe(4);
    for (const remove of [(t: string, k: string[]) => redactModelError(t, k), scrubSecrets, removeSecrets]) {
      expect(remove("key=abcd rejected", ["abcd"])).toBe(`key=${REDACTED} rejected`);
      expect(remove("mode on, level dev", ["on", "dev"])).toBe("mode on, level dev");
      // Longest first: a key containing another goes whole.
      expect(remove("x super-secret-value y", ["secret", "super-secret-value"])).toBe(`x ${REDACTED} y`);
    }
  });
});
