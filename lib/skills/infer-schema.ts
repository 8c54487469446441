/**
 * JSON Schema proposed from values (docs/agents.md, "Skills"): a skill's inputs from the
 * `data` its runs had, its output from the values they returned. A proposal the person edits,
 * so it says only what every sample shows: the types seen, the keys every sample of an object
 * has as required, array items from all their elements. Strings stay strings: an enum is the
 * person's decision, never guessed from a few samples. Pure.
 */

type Schema = Record<string, unknown>;

/** Deepest nesting read; deeper values are left open (`{}`). */
const MAX_DEPTH = 12;
/** Most properties kept per object; a sample with more is left open beyond them. */
const MAX_PROPERTIES = 200;

type Kind = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

function kindOf(value: unknown): Kind | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
      return Number.isInteger(value) ? "integer" : "number";
    case "string":
      return "string";
    case "object":
      return Array.isArray(value) ? "array" : "object";
    default:
      return undefined;
  }
}

/** The schema every one of `samples` satisfies (see the file comment); `{}` when there are none. */
export function inferSchema(samples: readonly unknown[], depth = 0): Schema {
  const present = samples.filter((sample) => kindOf(sample) !== undefined);
  if (present.length === 0 || depth > MAX_DEPTH) return {};
  const byKind = new Map<Kind, unknown[]>();
  for (const sample of present) {
    const kind = kindOf(sample) as Kind;
    const list = byKind.get(kind);
    if (list) list.push(sample);
    else byKind.set(kind, [sample]);
  }
  // An integer seen beside a fraction is a number.
  if (byKind.has("integer") && byKind.has("number")) {
    byKind.get("number")?.push(...(byKind.get("integer") ?? []));
    byKind.delete("integer");
  }
  const branches = [...byKind.entries()].map(([kind, values]) => schemaOfKind(kind, values, depth));
  if (branches.length === 1) return branches[0] as Schema;
  // Only scalars: one `type` list reads better than anyOf.
  if (branches.every((branch) => Object.keys(branch).length === 1)) return { type: branches.map((branch) => branch.type) };
  return { anyOf: branches };
}

function schemaOfKind(kind: Kind, values: unknown[], depth: number): Schema {
  if (kind === "array") {
    const items = (values as unknown[][]).flat();
    const itemSchema = inferSchema(items, depth + 1);
    return Object.keys(itemSchema).length > 0 ? { type: "array", items: itemSchema } : { type: "array" };
  }
  if (kind === "object") return objectSchema(values as Array<Record<string, unknown>>, depth);
  return { type: kind };
}

function objectSchema(objects: ReadonlyArray<Record<string, unknown>>, depth: number): Schema {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const object of objects)
    for (const key of Object.keys(object)) {
      if (seen.has(key) || keys.length >= MAX_PROPERTIES) continue;
      seen.add(key);
      keys.push(key);
    }
  const properties: Schema = {};
  const required: string[] = [];
  for (const key of keys) {
    const values = objects.filter((object) => Object.hasOwn(object, key)).map((object) => object[key]);
    // An own data property: a key named "__proto__" is a property like any other.
    Object.defineProperty(properties, key, { value: inferSchema(values, depth + 1), enumerable: true, writable: true, configurable: true });
    if (values.length === objects.length && values.every((value) => value !== undefined)) required.push(key);
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * A skill's input schema from the `data` of its runs: an object schema whose properties are the
 * globals (each required when every run had it), closed to other keys so a misspelt input is
 * refused rather than silently missing.
 */
export function inferInputSchema(samples: ReadonlyArray<Record<string, unknown>>): Schema {
  const inferred = samples.length > 0 ? objectSchema(samples, 0) : { type: "object", properties: {} };
  return { ...inferred, additionalProperties: false };
}
