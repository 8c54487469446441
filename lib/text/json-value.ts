/**
 * The guard for "a JSON object": not null, not an array. The one place it is said
 * (docs/ARCHITECTURE.md, "Where each concept lives").
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
