/** Compares a presented secret with the expected one in constant time (for equal lengths). */
import { timingSafeEqual } from "node:crypto";

export function secretsEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
