/**
 * Finds object shapes that a namespace prints more than once and names them, so each is
 * declared once as `type Name={…}` and referenced by name elsewhere. Then the same for enums
 * (unions of literals): a country list that four parameters share is printed once, as
 * `type OriginOrDestination="DE"|"FR"|…`, and costs its tokens once in every model request.
 *
 * Two shapes are the same when they print the same (members, types and JSDoc): schemas that
 * differ only in ways a type cannot show (say `additionalProperties: false` on one copy)
 * still share. Counting is done on what would actually be printed: once a shape is named,
 * the shapes nested in it are printed once (in its declaration), not once per use.
 */
import type { NameLookup, TsObject, TsType, TsUnion } from "./ts-type";
import { forEachObject, isLiteralUnion, printObject, typeKey } from "./ts-type";

/** The named shapes of one namespace. */
export interface SharedShapes {
  /** Enums in order of first use, then objects in order of first use. */
  types: Array<{ name: string; node: TsObject | TsUnion }>;
  /** Names an object or enum whose shape is shared. */
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
    if (unworthy.length === 0) return withEnums(roots, name(chosen, occurrences));
    for (const { key } of unworthy) excluded.add(key);
  }
}

interface EnumUse {
  node: TsUnion;
  /** Names of the properties it types, in order of use (a union in an array element or an index counts its property). */
  via: string[];
}

/**
 * Names the enums printed at least twice once the object shapes are named, when naming saves
 * more than it costs (the same rule as for shapes). Counted on what is printed: an enum inside
 * a named shape is printed once, in the shape's declaration.
 */
function withEnums(roots: readonly TsType[], objects: SharedShapes): SharedShapes {
  const uses = new Map<string, EnumUse>();
  const visit = (t: TsType, via: string | undefined, top: boolean): void => {
    switch (t.kind) {
      case "array":
        return visit(t.element, via, false);
      case "tuple":
        for (const e of t.elements) visit(e, via, false);
        if (t.rest) visit(t.rest, via, false);
        return;
      case "union":
        if (isLiteralUnion(t)) {
          const key = typeKey(t);
          const use = uses.get(key) ?? { node: t, via: [] };
          use.via.push(via ?? "");
          uses.set(key, use);
          return;
        }
        for (const m of t.members) visit(m, via, false);
        return;
      case "intersection":
        for (const m of t.members) visit(m, via, false);
        return;
      case "object":
        // A named shape prints as its name: its members are counted once, at its declaration.
        if (!top && objects.lookup(t) !== undefined) return;
        for (const m of t.members) visit(m.type, m.name, false);
        if (t.index) visit(t.index.type, via, false);
        return;
      default:
        return;
    }
  };
  for (const root of roots) visit(root, undefined, false);
  for (const { node } of objects.types) visit(node, undefined, true);
  const used = new Set(objects.types.map((t) => t.name));
  const names = new Map<string, string>();
  const enums: SharedShapes["types"] = [];
  for (const [key, use] of uses) {
    if (!worthNaming(key.length, use.via.length)) continue;
    const name = uniqueName(enumName(use.via), used);
    names.set(key, name);
    enums.push({ name, node: use.node });
  }
  if (enums.length === 0) return objects;
  return {
    types: [...enums, ...objects.types],
    lookup: (node) => (node.kind === "union" ? names.get(typeKey(node)) : objects.lookup(node)),
  };
}

/**
 * After the properties it types: the most used (`carrier` over a list's `id`); two used
 * equally often are joined (`OriginOrDestination`), so neither reads as the other.
 */
function enumName(via: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of via) if (name !== "") counts.set(name, (counts.get(name) ?? 0) + 1);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first) return "Choice";
  if (second && second[1] === first[1] && (ranked[2]?.[1] ?? 0) < first[1]) return `${typeName(first[0])}Or${typeName(second[0])}`;
  return first[0];
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
  return (node) => (node.kind === "object" && keys.has(typeKey(node)) ? "Placeholder" : undefined);
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
  return { types, lookup: (node) => (node.kind === "object" ? nameOf.get(typeKey(node)) : undefined) };
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
