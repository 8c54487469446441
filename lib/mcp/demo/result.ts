/**
 * Tool result builders shared by the demo servers: every success carries structuredContent
 * and a text mirror of it (for clients that predate structured output); every failure is an
 * `isError` result with a message a model can act on.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** A success: `structuredContent` plus the same value as compact JSON text. */
export function ok(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}

/** A tool-level failure (`isError: true`), not a protocol error: the model sees `message`. */
export function failure(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Rounds money to cents without binary noise (1.005 → 1.01). */
export function roundMoney(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}
