/**
 * What changed between two tool lists (after notifications/tools/list_changed). Pure.
 * "Changed" compares what the code and the model rely on: description, title, input and
 * output schemas and annotations (a tool turning destructive matters). Key order inside a
 * schema is not a change: servers rebuild their schemas and may reorder keys.
 */

/** Tool names added, removed and changed, each sorted by code unit. */
export interface ToolDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/** The fields of a tool the diff reads; the SDK's `Tool` fits. */
export interface DiffableTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** JSON with object keys sorted, so equal values give equal text whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => byCodeUnit(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

function fingerprint(tool: DiffableTool): string {
  return canonical({
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  });
}

/** Diffs two tool lists by name. */
export function diffTools(before: readonly DiffableTool[], after: readonly DiffableTool[]): ToolDiff {
  const old = new Map(before.map((t) => [t.name, fingerprint(t)]));
  const now = new Map(after.map((t) => [t.name, fingerprint(t)]));
  const added = [...now.keys()].filter((name) => !old.has(name)).sort(byCodeUnit);
  const removed = [...old.keys()].filter((name) => !now.has(name)).sort(byCodeUnit);
  const changed = [...now.entries()]
    .filter(([name, print]) => old.has(name) && old.get(name) !== print)
    .map(([name]) => name)
    .sort(byCodeUnit);
  return { added, removed, changed };
}

/** True when nothing was added, removed or changed. */
export function isEmptyDiff(diff: ToolDiff): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}
