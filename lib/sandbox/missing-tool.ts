/**
 * What a program is told when it calls a tool its server's namespace lacks (`lab.ecoh(...)`):
 * the server, the nearest names and all of them, instead of QuickJS's bare "not a function".
 * Read from the line the TypeError came from, after the run: the namespace objects stay plain
 * (`typeof lab.x`, `"x" in lab` and feature checks behave as on any object). Pure.
 */

/** Edit distance between two names. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = a[i - 1] === b[j - 1] ? row[j - 1]! : 1 + Math.min(row[j - 1]!, row[j]!, next[j - 1]!);
    }
    row = next;
  }
  return row[b.length]!;
}

/** Listed at most, past which the message says how many more there are. */
const LISTED = 30;

/** The message for `namespace.name` when the namespace has `names` and not that one. */
export function missingToolMessage(namespace: string, name: string, names: readonly string[]): string {
  const near = names.filter((candidate) => distance(name, candidate) <= (candidate.length > 4 ? 3 : 2) || candidate.includes(name) || name.includes(candidate));
  const all = names.slice(0, LISTED).join(", ") + (names.length > LISTED ? ` and ${names.length - LISTED} more` : "");
  const hint = near.length > 0 ? `; did you mean ${near.map((n) => `${namespace}.${n}`).join(" or ")}?` : ".";
  return `${namespace} has no tool "${name}"${hint} Its tools: ${all === "" ? "none" : all}.`;
}

/** The first `namespace.name(` on `line` whose namespace is one of `api`'s and whose name is not among its tools. */
export function missingToolOnLine(line: string, api: Readonly<Record<string, readonly string[]>>): { namespace: string; name: string } | undefined {
  for (const match of line.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\s*\.\s*([A-Za-z_$][\w$]*)\s*\(/g)) {
    const [, namespace = "", name = ""] = match;
    const names = Object.hasOwn(api, namespace) ? api[namespace] : undefined;
    if (names && !names.includes(name)) return { namespace, name };
  }
  return undefined;
}
