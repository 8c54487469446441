/**
 * Server and tool names → JavaScript identifiers, with deterministic collision handling.
 * Pure: the same names in any order give the same mapping.
 */
import { DISCOVERY_NAMESPACE } from "./discovery-api";
import type { NameCollision, NameMapping, ServerTools } from "./types";

// Reserved words, strict-mode reserved words, and names strict code may not bind
// (`eval`, `arguments`): tools become `function name()` inside a namespace, so all are out.
const RESERVED_WORDS = new Set([
  "arguments",
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "eval",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "instanceof",
  "interface",
  "let",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "yield",
  "undefined",
  "NaN",
  "Infinity",
]);

// A namespace is a global value, so it must not redeclare one the code or the editor already
// has. These are the ECMAScript globals, ESNext's included (a test checks them against
// TypeScript's lib.es*.d.ts), `console` (the sandbox provides it) and the few window globals
// a server is plausibly named after. The sandbox has no DOM, so the editor should not load
// lib.dom; the DOM names here are only a courtesy for an editor configured with it.
const RESERVED_GLOBALS = new Set([
  "AggregateError",
  "Array",
  "ArrayBuffer",
  "Atomics",
  "BigInt",
  "BigInt64Array",
  "BigUint64Array",
  "AsyncDisposableStack",
  "Boolean",
  "DataView",
  "Date",
  "DisposableStack",
  "Error",
  "EvalError",
  "FinalizationRegistry",
  "Float16Array",
  "Float32Array",
  "Iterator",
  "SuppressedError",
  "Temporal",
  "Float64Array",
  "Function",
  "Int16Array",
  "Int32Array",
  "Int8Array",
  "Intl",
  "JSON",
  "Map",
  "Math",
  "Number",
  "Object",
  "Promise",
  "Proxy",
  "RangeError",
  "ReferenceError",
  "Reflect",
  "RegExp",
  "Set",
  "SharedArrayBuffer",
  "String",
  "Symbol",
  "SyntaxError",
  "TypeError",
  "URIError",
  "Uint16Array",
  "Uint32Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "WeakMap",
  "WeakRef",
  "WeakSet",
  "decodeURI",
  "decodeURIComponent",
  "encodeURI",
  "encodeURIComponent",
  "escape",
  "globalThis",
  "isFinite",
  "isNaN",
  "parseFloat",
  "parseInt",
  "unescape",
  "console",
  "document",
  "fetch",
  "history",
  "length",
  "location",
  "name",
  "navigator",
  "self",
  "status",
  // Programs discover tools through it (discovery-api.ts).
  DISCOVERY_NAMESPACE,
  // Programs call the page's skills through it (lib/skills/skill.ts).
  "skills",
  "window",
]);

/**
 * Names a property may not take in JavaScript's object and promise protocols: a namespace or
 * the `skills` object with a `then` is a thenable (awaiting it calls that function), one with a
 * `toJSON` changes how it is stringified. Tools and servers so named are renamed ("then" →
 * "then_") like reserved words; skills are refused (lib/skills/skill.ts).
 */
export const PROTOCOL_NAMES: ReadonlySet<string> = new Set(["then", "toJSON", "constructor", "prototype", "__proto__", "valueOf", "toString"]);

/** Sanitises one name into an identifier; `forNamespace` also avoids global values. */
export function sanitiseIdentifier(name: string, forNamespace = false): string {
  let id = name
    // Strip accents rather than drop the letter: "créer" → "creer", not "crer".
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[-.\s]+/g, "_")
    .replace(/[^A-Za-z0-9_$]/g, "");
  if (id === "") id = "_";
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED_WORDS.has(id) || PROTOCOL_NAMES.has(id) || (forNamespace && RESERVED_GLOBALS.has(id))) id = `${id}_`;
  return id;
}

interface Assigned {
  /** Final identifier per input index. */
  ids: string[];
  collisions: Array<{ identifier: string; resolved: Array<{ original: string; sanitised: string }> }>;
}

/**
 * Gives every original a unique identifier. Within a group wanting the same identifier, an
 * original that already is that identifier keeps it; the rest, sorted by original name, get
 * `_2`, `_3`, … (skipping any identifier another name already has), so the result does not
 * depend on the order the server listed them in.
 */
function assign(originals: readonly string[], forNamespace: boolean): Assigned {
  const wanted = originals.map((original) => sanitiseIdentifier(original, forNamespace));
  const groups = new Map<string, number[]>();
  wanted.forEach((id, index) => {
    const group = groups.get(id);
    if (group) group.push(index);
    else groups.set(id, [index]);
  });
  const taken = new Set(wanted);
  const ids = [...wanted];
  const collisions: Assigned["collisions"] = [];
  for (const identifier of [...groups.keys()].sort()) {
    const members = groups.get(identifier) ?? [];
    if (members.length < 2) continue;
    const ordered = [...members].sort((a, b) => {
      const exactA = originals[a] === identifier ? 0 : 1;
      const exactB = originals[b] === identifier ? 0 : 1;
      if (exactA !== exactB) return exactA - exactB;
      const oa = originals[a] ?? "";
      const ob = originals[b] ?? "";
      return oa < ob ? -1 : oa > ob ? 1 : a - b;
    });
    const resolved: Array<{ original: string; sanitised: string }> = [];
    let suffix = 2;
    ordered.forEach((index, position) => {
      let id = identifier;
      if (position > 0) {
        while (taken.has(`${identifier}_${suffix}`)) suffix++;
        id = `${identifier}_${suffix}`;
        taken.add(id);
        suffix++;
      }
      ids[index] = id;
      resolved.push({ original: originals[index] ?? "", sanitised: id });
    });
    collisions.push({ identifier, resolved });
  }
  return { ids, collisions };
}

/** Identifiers for every server (namespace) and every tool within its server. */
export interface ResolvedNames {
  /** Namespace per server, by input index. */
  servers: string[];
  /** Function name per tool, by server index then tool index. */
  tools: string[][];
  names: NameMapping[];
  collisions: NameCollision[];
}

/** Sanitises all server and tool names, resolving collisions deterministically. */
export function resolveNames(servers: readonly ServerTools[]): ResolvedNames {
  // A server with a fixed namespace keeps it; the rest are assigned among themselves (the fixed
  // ones are reserved globals, so no other server's name sanitises to one of them).
  const free = servers.flatMap((server, index) => (server.namespace === undefined ? [index] : []));
  const assigned = assign(
    free.map((index) => servers[index]?.name ?? ""),
    true,
  );
  const serverIds: Assigned = { ids: servers.map((server) => server.namespace ?? ""), collisions: assigned.collisions };
  free.forEach((index, i) => (serverIds.ids[index] = assigned.ids[i] ?? "_"));
  const names: NameMapping[] = [];
  const collisions: NameCollision[] = serverIds.collisions.map((c) => ({ kind: "server", ...c }));
  const tools = servers.map((server, s) => {
    const ns = serverIds.ids[s] ?? "_";
    names.push({ kind: "server", server: server.name, original: server.name, sanitised: ns });
    const toolIds = assign(
      server.tools.map((tool) => tool.name),
      false,
    );
    for (const c of toolIds.collisions) collisions.push({ kind: "tool", server: server.name, ...c });
    server.tools.forEach((tool, t) => {
      names.push({ kind: "tool", server: server.name, original: tool.name, sanitised: toolIds.ids[t] ?? "_" });
    });
    return toolIds.ids;
  });
  return { servers: serverIds.ids, tools, names, collisions };
}
