/**
 * A small TypeScript type tree, its simplifications and its compact printer.
 * The schema converter builds these trees; the printer is the only place that decides how
 * the declarations look, so the layout rules live here and nowhere else:
 * no space around `:`, `|`, `&` or `=` (each costs a token and reads no better), an object
 * goes on one line unless one of its members carries JSDoc, and then one member per line
 * without indentation (a nested object's braces already show where it ends).
 */

/** A TypeScript keyword type. */
export type Keyword = "string" | "number" | "boolean" | "null" | "undefined" | "unknown" | "never";

/** Where a name for a shared object shape may come from, strongest last. */
export interface NameHint {
  name: string;
  /** 0: a tool's input or output root, 1: a property name, 2: a `title` or `$defs` key. */
  strength: 0 | 1 | 2;
  /** For roots: "Input" or "Output", used when tools sharing a shape disagree on its name. */
  role?: "Input" | "Output";
}

/** An object type: members in schema order, plus an optional index signature. */
export interface TsObject {
  kind: "object";
  key?: string;
  members: TsMember[];
  index?: { type: TsType; doc: string };
  /** `additionalProperties: false`: an empty closed object is `Record<string,never>`. */
  closed: boolean;
  hint: NameHint;
}

/** One property of an object type. */
export interface TsMember {
  name: string;
  optional: boolean;
  type: TsType;
  /** JSDoc body, already escaped; empty for none. */
  doc: string;
}

/**
 * The type tree. `key` caches typeKey(): nodes are never changed after they are built, so
 * the cache cannot go stale, and a field is several times faster than a WeakMap here.
 */
export type TsType = (
  | { kind: "keyword"; name: Keyword }
  | { kind: "literal"; text: string }
  | { kind: "array"; element: TsType }
  | { kind: "tuple"; elements: TsType[]; rest?: TsType }
  | TsObject
  | { kind: "union"; members: TsType[] }
  | { kind: "intersection"; members: TsType[] }
) & { key?: string };

/** A keyword type node. */
export function keyword(name: Keyword): TsType {
  return { kind: "keyword", name };
}

/** A literal type for a JSON value (`"a"`, `1`, `true`, `null`, or an object/array literal type). */
export function literal(value: unknown): TsType {
  if (value === null) return keyword("null");
  // JSON.stringify of a string is always a valid TS string literal; objects and arrays
  // print as object literal and tuple types of literals, which is what `const` means.
  // U+2028/U+2029 are legal in string literals but end a line for many other tools: escape them.
  const text = JSON.stringify(value)
    ?.replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return text === undefined ? keyword("unknown") : { kind: "literal", text };
}

const isKeyword = (t: TsType, name: Keyword): boolean => t.kind === "keyword" && t.name === name;

/** A union, flattened and deduplicated; `unknown` absorbs it and `never` drops out. */
export function union(members: readonly TsType[]): TsType {
  // One member needs no deduplication, and skipping it avoids printing its key early.
  if (members.length === 1 && members[0]?.kind !== "union") return members[0] ?? keyword("never");
  const flat: TsType[] = [];
  const seen = new Set<string>();
  for (const member of members) {
    for (const m of member.kind === "union" ? member.members : [member]) {
      if (isKeyword(m, "unknown")) return m;
      if (isKeyword(m, "never")) continue;
      const key = typeKey(m);
      if (seen.has(key)) continue;
      seen.add(key);
      flat.push(m);
    }
  }
  if (flat.length === 0) return keyword("never");
  if (flat.length === 1) return flat[0] ?? keyword("never");
  return { kind: "union", members: flat };
}

/**
 * An intersection; `unknown` drops out and `never` absorbs it. Objects whose members do not
 * overlap are merged into one, which is what `allOf: [{ $ref }, { properties }]` means and
 * reads far better than `{…}&{…}`.
 */
export function intersection(members: readonly TsType[]): TsType {
  const flat: TsType[] = [];
  for (const member of members) {
    for (const m of member.kind === "intersection" ? member.members : [member]) {
      if (isKeyword(m, "never")) return m;
      if (isKeyword(m, "unknown")) continue;
      const previous = flat.at(-1);
      const merged = previous && mergeObjects(previous, m);
      if (merged) flat[flat.length - 1] = merged;
      else if (!flat.some((f) => typeKey(f) === typeKey(m))) flat.push(m);
    }
  }
  if (flat.length === 0) return keyword("unknown");
  if (flat.length === 1) return flat[0] ?? keyword("unknown");
  return { kind: "intersection", members: flat };
}

function mergeObjects(a: TsType, b: TsType): TsObject | undefined {
  if (a.kind !== "object" || b.kind !== "object") return undefined;
  if (a.index && b.index) return undefined;
  const names = new Set(a.members.map((m) => m.name));
  if (b.members.some((m) => names.has(m.name))) return undefined;
  const hint = b.hint.strength > a.hint.strength ? b.hint : a.hint;
  const index = a.index ?? b.index;
  return { kind: "object", members: [...a.members, ...b.members], ...(index && { index }), closed: a.closed && b.closed, hint };
}

const noNames: NameLookup = () => undefined;

/** The type printed with every object inline: two shapes are the same iff their keys are. */
export function typeKey(t: TsType): string {
  // Children print through typeKey too, so each subtree is printed once however often
  // its ancestors are keyed: this is what keeps 1 000 tools in tens of milliseconds.
  t.key ??= print(t, noNames, typeKey);
  return t.key;
}

/** Names a shape declared elsewhere (an object, or a union of literals), or undefined to print it inline. */
export type NameLookup = (node: TsObject | TsUnion) => string | undefined;

/** A union node. */
export type TsUnion = Extract<TsType, { kind: "union" }>;

/** A union whose members are all literals (`"a"|"b"|1`): an enum, which a namespace may name once. */
export function isLiteralUnion(t: TsType): boolean {
  return t.kind === "union" && t.members.length >= 2 && t.members.every((m) => m.kind === "literal");
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as TypeScript wants it: bare when it is an identifier, else quoted. */
export function propertyName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** `/** text *\/`, or nothing for an empty doc. */
export function jsDoc(doc: string): string {
  return doc === "" ? "" : `/** ${doc} */`;
}

type Printer = (t: TsType) => string;

/** Prints a type; objects the lookup names print as that name. */
export function printType(t: TsType, lookup: NameLookup): string {
  const sub: Printer = (child) => print(child, lookup, sub);
  return print(t, lookup, sub);
}

/** Prints an object's body (never its name): used for `type Name=` declarations too. */
export function printObject(t: TsObject, lookup: NameLookup): string {
  const sub: Printer = (child) => print(child, lookup, sub);
  return printBody(t, sub);
}

/** What a `type Name=` declaration says: an object's body, or a union's members (never its own name). */
export function printDefinition(t: TsObject | TsUnion, lookup: NameLookup): string {
  const sub: Printer = (child) => print(child, lookup, sub);
  return t.kind === "object" ? printBody(t, sub) : t.members.map(sub).join("|");
}

function print(t: TsType, lookup: NameLookup, sub: Printer): string {
  switch (t.kind) {
    case "keyword":
      return t.name;
    case "literal":
      return t.text;
    case "array":
      return `${wrap(t.element, sub)}[]`;
    case "tuple": {
      const parts = t.elements.map(sub);
      if (t.rest) parts.push(`...${wrap(t.rest, sub)}[]`);
      return `[${parts.join(",")}]`;
    }
    case "union":
      return (isLiteralUnion(t) ? lookup(t) : undefined) ?? t.members.map(sub).join("|");
    case "intersection":
      return t.members.map((m) => (m.kind === "union" ? wrap(m, sub) : sub(m))).join("&");
    case "object":
      return lookup(t) ?? printBody(t, sub);
  }
}

function wrap(t: TsType, sub: Printer): string {
  const text = sub(t);
  // A named union prints as its name, which needs no parentheses.
  return (t.kind === "union" || t.kind === "intersection") && !IDENTIFIER.test(text) ? `(${text})` : text;
}

function printBody(t: TsObject, sub: Printer): string {
  const { members, index } = t;
  if (members.length === 0 && (!index || index.doc === "")) {
    if (index) return `Record<string,${sub(index.type)}>`;
    return t.closed ? "Record<string,never>" : "Record<string,unknown>";
  }
  let multiline = index !== undefined && index.doc !== "";
  const lines = members.map((m) => {
    if (m.doc !== "") multiline = true;
    const head = m.doc === "" ? "" : `${jsDoc(m.doc)}\n`;
    return `${head}${propertyName(m.name)}${m.optional ? "?" : ""}:${sub(m.type)}`;
  });
  if (index) lines.push(`${index.doc === "" ? "" : `${jsDoc(index.doc)}\n`}[key:string]:${sub(index.type)}`);
  return multiline ? `{\n${lines.join(";\n")};\n}` : `{${lines.join(";")}}`;
}

/** Calls `visit` on every object in the tree, outermost first, with its nearest object ancestor. */
export function forEachObject(t: TsType, visit: (object: TsObject, parent: TsObject | undefined) => void, parent?: TsObject): void {
  switch (t.kind) {
    case "array":
      forEachObject(t.element, visit, parent);
      return;
    case "tuple":
      for (const e of t.elements) forEachObject(e, visit, parent);
      if (t.rest) forEachObject(t.rest, visit, parent);
      return;
    case "union":
    case "intersection":
      for (const m of t.members) forEachObject(m, visit, parent);
      return;
    case "object":
      visit(t, parent);
      for (const m of t.members) forEachObject(m.type, visit, t);
      if (t.index) forEachObject(t.index.type, visit, t);
      return;
    default:
      return;
  }
}
