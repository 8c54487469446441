/**
 * Tool result builders shared by the demo servers: every success carries structuredContent
 * and a text mirror of it (for clients that predate structured output); every failure is an
 * `isError` result with a message a model can act on.
 */
import type { CallToolResult, ServerOptions } from "@modelcontextprotocol/server";

/**
 * Cache hints for 2026-07-28 clients (list results carry `ttlMs` and `cacheScope`): a demo's
 * tools, resources and description never change while the app runs, and are the same for
 * everyone. 2025-era responses carry no hints (the SDK adds them only on that revision).
 */
export const STATIC_LISTS: NonNullable<ServerOptions["cacheHints"]> = {
  "server/discover": { ttlMs: 300_000, cacheScope: "public" },
  "tools/list": { ttlMs: 300_000, cacheScope: "public" },
  "resources/list": { ttlMs: 300_000, cacheScope: "public" },
};

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
