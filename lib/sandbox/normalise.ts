import { parse, type Program } from "acorn";
import type * as Sucrase from "sucrase";
import { sandboxError } from "./errors";
import { stripFence } from "./strip-fence";
import type { SandboxError } from "./types";
import { messageOf } from "../text/error-message";

/** The file name guest code is evaluated under; stack frames name it. */
export const CODE_FILENAME = "code.js";

// The wrapper prefix shares line 1 with the first line of code, so guest line N is written line N.
const PREFIX = "(async () => {";
// On its own line so a trailing `// comment` in the code cannot swallow it.
const SUFFIX = "\n})()";

/** Columns the wrapper adds to line 1 of the evaluated source. */
export const LINE_ONE_COLUMN_SHIFT = PREFIX.length;

/** Code ready to evaluate as a script: its completion value is the program's promise. */
export interface NormalisedCode {
  source: string;
  /** Add to a line of `source` to get the line in the code as the person wrote it. */
  lineOffset: number;
}

const TS_LANGUAGES = new Set(["ts", "typescript", "tsx", "mts", "cts"]);
const FUNCTION_TYPES = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

interface Parsed {
  js: string;
  program: Program;
}

interface ParseFailure {
  message: string;
  line: number;
  column: number;
  pos: number;
}

/**
 * Accepts what models send: an async arrow function (called), a bare body with top-level
 * `await` and `return`, a markdown fence, TypeScript (types stripped by sucrase, which keeps
 * line numbers). Without a top-level `return`, the last expression statement is returned.
 * Pure: no QuickJS here.
 */
export function normaliseCode(code: string): NormalisedCode | { error: SandboxError } | NeedsTypeStripper {
  const known = recent.get(code);
  if (known) return known;
  const normalised = normaliseFresh(code);
  if ("error" in normalised || "needsTypeStripper" in normalised) return normalised;
  if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value as string);
  recent.set(code, Object.freeze(normalised));
  return normalised;
}

// The same program runs again and again (replays, evals, re-runs while editing, a server's
// clients): parsing it again each time cost more than a small run itself.
const RECENT_LIMIT = 32;
const recent = new Map<string, Readonly<NormalisedCode>>();

/** The code is not plain JavaScript: load the TypeScript stripper (loadTypeStripper) and ask again. */
export interface NeedsTypeStripper {
  needsTypeStripper: true;
}

let stripTypes: ((text: string) => string) | undefined;

/**
 * Loads sucrase, the TypeScript stripper, once. It is most of the sandbox worker's own code and
 * most programs are plain JavaScript, so it loads the first time a program is not.
 */
export async function loadTypeStripper(): Promise<void> {
  if (stripTypes) return;
  // sucrase is CommonJS: a bundle that imports it as ESM (the channel listener's esbuild bundle)
  // puts its exports under `default`.
  const loaded = (await import("sucrase")) as typeof Sucrase & { default?: typeof Sucrase };
  const transform = typeof loaded.transform === "function" ? loaded.transform : loaded.default?.transform;
  if (typeof transform !== "function") throw new Error("The TypeScript stripper (sucrase) did not load.");
  stripTypes = (text) => transform(text, { transforms: ["typescript"], disableESTransforms: true }).code;
}

function normaliseFresh(code: string): NormalisedCode | { error: SandboxError } | NeedsTypeStripper {
  const { body, lineOffset, language } = stripFence(code);
  const parsed = parseProgram(body, TS_LANGUAGES.has(language));
  if ("needsTypeStripper" in parsed) return parsed;
  if ("message" in parsed) {
    return {
      error: sandboxError("syntax", parsed.message, { line: parsed.line + lineOffset, column: parsed.column }),
    };
  }
  return { source: PREFIX + addReturn(parsed.js, parsed.program) + SUFFIX, lineOffset };
}

function parseProgram(text: string, typeScriptFirst: boolean): Parsed | ParseFailure | NeedsTypeStripper {
  const asJs = typeScriptFirst ? undefined : parseJs(text);
  if (asJs && !("message" in asJs)) return asJs;
  if (!stripTypes) return { needsTypeStripper: true };
  let stripped: string;
  try {
    stripped = stripTypes(text);
  } catch (error) {
    const fromSucrase = sucraseFailure(error);
    if (!asJs) return fromSucrase;
    // Report the parser that understood more of the code: its error is the real one.
    return fromSucrase.pos > asJs.pos ? fromSucrase : asJs;
  }
  return parseJs(stripped);
}

function parseJs(js: string): Parsed | ParseFailure {
  try {
    const program = parse(js, {
      ecmaVersion: "latest",
      sourceType: "script",
      allowAwaitOutsideFunction: true,
      allowReturnOutsideFunction: true,
    });
    return { js, program };
  } catch (error) {
    const { loc, pos } = error as { loc?: { line: number; column: number }; pos?: number };
    return {
      message: withoutPosition(error),
      line: loc?.line ?? 1,
      column: (loc?.column ?? 0) + 1,
      pos: pos ?? 0,
    };
  }
}

function sucraseFailure(error: unknown): ParseFailure {
  const { loc, pos } = error as { loc?: { line: number; column: number }; pos?: number };
  // Sucrase reports 1-based columns already.
  return { message: withoutPosition(error), line: loc?.line ?? 1, column: loc?.column ?? 1, pos: pos ?? 0 };
}

function withoutPosition(error: unknown): string {
  const message = messageOf(error);
  return message.replace(/\s*\(\d+:\d+\)$/, "");
}

/** Rewrites the program so its value comes back: calls a lone function, or returns the last expression. */
function addReturn(js: string, program: Program): string {
  if (program.body.some((statement) => containsReturn(statement))) return js;
  const last = program.body.at(-1);
  if (!last || last.type !== "ExpressionStatement") return js;
  const end = js[last.end - 1] === ";" ? last.end - 1 : last.end;
  const expression = js.slice(last.start, end);
  const call = FUNCTION_TYPES.has(last.expression.type) ? "()" : "";
  // Only characters are added, never newlines, so every line keeps its number.
  return `${js.slice(0, last.start)}return (${expression})${call};${js.slice(last.end)}`;
}

/** True when a `return` belongs to the top level (not to a nested function). */
function containsReturn(node: unknown): boolean {
  if (typeof node !== "object" || node === null) return false;
  if (Array.isArray(node)) return node.some(containsReturn);
  const type = (node as { type?: unknown }).type;
  if (typeof type !== "string") return false;
  if (type === "ReturnStatement") return true;
  if (FUNCTION_TYPES.has(type)) return false;
  return Object.values(node).some((child) => typeof child === "object" && containsReturn(child));
}
