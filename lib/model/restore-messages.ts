import type { CodeModeUIMessage } from "./types";

/** Messages a restored conversation keeps at most; a share is capped anyway, this bounds the UI. */
const MAX_MESSAGES = 500;
const ROLES = new Set(["user", "assistant", "system"]);

/**
 * Turns shared JSON (from a link, so anything) into chat messages: only objects with a string id,
 * a known role and an array of typed parts survive; everything else is dropped, never thrown.
 */
export function toRestorableMessages(value: readonly unknown[]): CodeModeUIMessage[] {
  const out: CodeModeUIMessage[] = [];
  for (const item of value) {
    if (out.length >= MAX_MESSAGES) break;
    if (!item || typeof item !== "object") continue;
    const { id, role, parts } = item as { id?: unknown; role?: unknown; parts?: unknown };
    if (typeof id !== "string" || typeof role !== "string" || !ROLES.has(role) || !Array.isArray(parts)) continue;
    const typed = parts.filter((p): p is { type: string } => !!p && typeof p === "object" && typeof (p as { type?: unknown }).type === "string");
    out.push({ id, role, parts: typed } as CodeModeUIMessage);
  }
  return out;
}
