/**
 * Roots: the directories (file:// URIs) the person tells each server it may work in, answered to
 * `roots/list` and announced with `notifications/roots/list_changed` when they change. Kept per
 * server id in this browser (ROOTS_KEY). The person edits them as text, one root a line: the URI,
 * then an optional name. Pure; the storage is injected.
 */
import type { Root } from "@modelcontextprotocol/client";
import type { RemovableTextStorage } from "../storage/key-value";

export const ROOTS_KEY = "code-mode-playground:mcp-roots:v1";
const MAX_ROOTS = 100;

/** Parses the text form; every line that is not a file:// URI is an error naming its line. */
export function parseRoots(text: string): { ok: true; roots: Root[] } | { ok: false; errors: string[] } {
  const roots: Root[] = [];
  const errors: string[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    const [uri = "", ...rest] = line.split(/\s+/);
    let parsed: URL | undefined;
    try {
      parsed = new URL(uri);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.protocol !== "file:") {
      errors.push(`Line ${index + 1}: "${uri.slice(0, 100)}" is not a file:// URI (roots are directories, such as file:///home/me/project).`);
      return;
    }
    const name = rest.join(" ").trim();
    roots.push({ uri: parsed.href, ...(name ? { name } : {}) });
  });
  if (roots.length > MAX_ROOTS) errors.push(`At most ${MAX_ROOTS} roots.`);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, roots };
}

/** The text form of a list. */
export function formatRoots(roots: readonly Root[]): string {
  return roots.map((root) => (root.name ? `${root.uri} ${root.name}` : root.uri)).join("\n");
}

/** Roots by server id. */
export class RootsStore {
  private roots: Record<string, Root[]> = {};
  private readonly listeners = new Set<(serverId: string) => void>();

  constructor(private readonly storage?: RemovableTextStorage) {
    try {
      const text = storage?.getItem(ROOTS_KEY);
      const parsed = text ? (JSON.parse(text) as unknown) : undefined;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
        for (const [id, list] of Object.entries(parsed)) {
          const checked = Array.isArray(list) ? parseRoots(formatRoots(list.filter((r): r is Root => typeof (r as Root | null)?.uri === "string"))) : undefined;
          if (checked?.ok) this.roots[id] = checked.roots;
        }
      }
    } catch {
      // Unreadable roots start empty.
    }
  }

  get(serverId: string): Root[] {
    return Object.hasOwn(this.roots, serverId) ? [...(this.roots[serverId] ?? [])] : [];
  }

  set(serverId: string, roots: readonly Root[]): void {
    const next = { ...this.roots };
    if (roots.length === 0) delete next[serverId];
    else next[serverId] = [...roots];
    this.roots = next;
    try {
      if (Object.keys(next).length === 0) this.storage?.removeItem(ROOTS_KEY);
      else this.storage?.setItem(ROOTS_KEY, JSON.stringify(next));
    } catch {
      // A full storage keeps the roots for this page only.
    }
    for (const listener of [...this.listeners]) listener(serverId);
  }

  /** Runs `listener` with the server id whose roots changed. */
  subscribe(listener: (serverId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
