/**
 * Finds object shapes that a namespace prints more than once and names them, so each is
 * declared once as `type Name={…}` and referenced by name elsewhere.
 *
 * Two shapes are the same when they print the same (members, types and JSDoc): schemas that
 * differ only in ways a type cannot show (say `additionalProperties: false` on one copy)
 * still share. Counting is done on what would actually be printed: once a shape is named,
 * the shapes nested in it are printed once (in its declaration), not once per use.
 */
import type { NameLookup, TsObject, TsType } from "./ts-type";
import { forEachObject, printObject, typeKey } from "./ts-type";

/** The named shapes of one namespace. */
export interface SharedShapes {
  /** In order of first use. */
  types: Array<{ name: string; node: TsObject }>;
  /** Names an object whose shape is shared. */
  lookup: NameLookup;
}

// Shapes shorter than this stay inline even when repeated: `{content:string}` reads better
// at the call than a name the model must look up, and naming it saves next to nothing.
const MIN_SHARED_CHARS = 40;
// A reference costs about a name's length; a declaration adds `type Name=` and a newline.
const NAME_COST = 10;
const DECLARATION_COST = 12;

// Names the printer itself uses: a shape called `Promise` would shadow the real one.
const RESERVED_TYPE_NAMES = new Set(["Promise", "Record"]);

interface Occurrence {
  node: TsObject;
  key: string;
  /** Index of the nearest enclosing object occurrence, or -1 at a root. */
  parent: number;
}

/** Chooses the shapes to name among the roots (in print order) and names them. */
export function findSharedShapes(roots: readonly TsType[]): SharedShapes {
  const occurrences = collect(roots);
  // A shape is counted at its full inline length, but once the shapes inside it are named it
  // prints shorter and may no longer be worth a name (`{entities:Entity[]}`). Such shapes are
  // ruled out and the choice redone; each round only rules out more, so this ends.
  const excluded = new Set<string>();
  for (;;) {
    const chosen = choose(occurrences, excluded);
    const lookup = lookupFor(chosen);
    const unworthy = chosen.filter(({ live }) => {
      const node = occurrences[live[0] ?? 0]?.node;
      return node !== undefined && !worthNaming(printObject(node, lookup).length, live.length);
    });
    if (unworthy.length === 0) return name(chosen, occurrences);
    for (const { key } of unworthy) excluded.add(key);
  }
}

function collect(roots: readonly TsType[]): Occurrence[] {
  const occurrences: Occurrence[] = [];
  const indexOf = new Map<TsObject, number>();
  for (const root of roots) {
    forEachObject(root, (node, parent) => {
      indexOf.set(node, occurrences.length);
      occurrences.push({ node, key: typeKey(node), parent: parent ? (indexOf.get(parent) ?? -1) : -1 });
    });
  }
  return occurrences;
}

function worthNaming(length: number, uses: number): boolean {
  return uses >= 2 && length >= MIN_SHARED_CHARS && (uses - 1) * length > DECLARATION_COST + NAME_COST * uses;
}

interface Chosen {
  key: string;
  /** The occurrences that would be printed, first one canonical. */
  live: number[];
}

function choose(occurrences: readonly Occurrence[], excluded: ReadonlySet<string>): Chosen[] {
  const groups = new Map<string, number[]>();
  occurrences.forEach((o, i) => {
    const group = groups.get(o.key);
    if (group) group.push(i);
    else groups.set(o.key, [i]);
  });
  // Longest first: an enclosing shape always prints longer than what it encloses, so by the
  // time a shape is counted, every decision about the shapes around it has been made.
  const ordered = [...groups.entries()].sort((a, b) => b[0].length - a[0].length || (a[1][0] ?? 0) - (b[1][0] ?? 0));
  const printed: boolean[] = [];
  const canonical = new Map<string, number>();
  const chosen: Chosen[] = [];
  for (const [key, indexes] of ordered) {
    const live = indexes.filter((i) => {
      const parent = occurrences[i]?.parent ?? -1;
      const parentKey = occurrences[parent]?.key;
      const isPrinted =
        parent < 0 || ((printed[parent] ?? false) && (parentKey === undefined || !canonical.has(parentKey) || canonical.get(parentKey) === parent));
      printed[i] = isPrinted;
      return isPrinted;
    });
    if (!excluded.has(key) && worthNaming(key.length, live.length)) {
      canonical.set(key, live[0] ?? 0);
      chosen.push({ key, live });
    }
  }
  return chosen.sort((a, b) => (a.live[0] ?? 0) - (b.live[0] ?? 0));
}

// Placeholder names are enough to measure how long a shape prints once others are named.
function lookupFor(chosen: readonly Chosen[]): NameLookup {
  const keys = new Set(chosen.map((c) => c.key));
  return (object) => (keys.has(typeKey(object)) ? "Placeholder" : undefined);
}

function name(chosen: readonly Chosen[], occurrences: readonly Occurrence[]): SharedShapes {
  const nameOf = new Map<string, string>();
  const used = new Set<string>();
  const types = chosen.map(({ key, live }) => {
    const nodes = live.map((i) => occurrences[i]?.node).filter((n): n is TsObject => n !== undefined);
    const name = uniqueName(baseName(nodes), used);
    nameOf.set(key, name);
    return { name, node: nodes[0] as TsObject };
  });
  return { types, lookup: (object) => nameOf.get(typeKey(object)) };
}

/**
 * The strongest hint wins (a `title` or `$defs` key over a property name over a tool root),
 * then the most frequent. Tool roots that disagree (`read_file`'s input is also
 * `read_text_file`'s) are not named after one of the tools: a shape with one or two
 * properties is named after them (`EntitiesRelations`), a bigger one after its role
 * ("Input", "Output") or, when it serves as both, "Shape".
 */
function baseName(nodes: readonly TsObject[]): string {
  const strongest = Math.max(...nodes.map((n) => n.hint.strength));
  const hints = nodes.map((n) => n.hint).filter((h) => h.strength === strongest);
  const counts = new Map<string, number>();
  for (const h of hints) counts.set(h.name, (counts.get(h.name) ?? 0) + 1);
  if (strongest === 0 && counts.size > 1) {
    const members = nodes[0]?.members ?? [];
    if (members.length > 0 && members.length <= 2) return members.map((m) => typeName(m.name)).join("");
    const roles = new Set(hints.map((h) => h.role));
    return roles.size === 1 ? (hints[0]?.role ?? "Shape") : "Shape";
  }
  let best = hints[0]?.name ?? "Shape";
  for (const [name, count] of counts) if (count > (counts.get(best) ?? 0)) best = name;
  return best;
}

/** PascalCase identifier from free text (`entity type` → `EntityType`). */
export function typeName(text: string): string {
  const words = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const name = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  if (name === "") return "Shape";
  return /^[0-9]/.test(name) ? `T${name}` : name;
}

function uniqueName(base: string, used: Set<string>): string {
  const root = typeName(base);
  let name = root;
  for (let n = 2; used.has(name) || RESERVED_TYPE_NAMES.has(name); n++) name = `${root}${n}`;
  used.add(name);
  return name;
}
