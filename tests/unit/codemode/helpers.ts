/**
 * Test helpers for the code-mode suite: the real-schema corpus, and a TypeScript compile
 * check run through the compiler API (strict, noEmit), as the editor would check the code.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import type { ServerTools, ToolDefinition } from "../../../lib/codemode/types";

const fixtures = path.join(import.meta.dirname, "..", "..", "fixtures", "schemas");

/** The real servers captured by scripts/capture-schemas.ts. */
export const CORPUS = ["everything", "filesystem", "memory", "sequential-thinking"] as const;

/** One captured server's tools, as its tools/list returned them. */
export function loadServer(name: string): ServerTools {
  const json = JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), "utf8")) as { tools: ToolDefinition[] };
  return { name, tools: json.tools };
}

/** The whole real corpus. */
export function loadCorpus(): ServerTools[] {
  return CORPUS.map(loadServer);
}

/** The hand-written adversarial catalog (a map of server name to tools). */
export function loadAdversarial(): ServerTools[] {
  const json = JSON.parse(readFileSync(path.join(fixtures, "adversarial.json"), "utf8")) as Record<string, ToolDefinition[]>;
  return Object.entries(json).map(([name, tools]) => ({ name, tools }));
}

// Lib files parse once per test file, not once per program: they are most of the time spent.
const libCache = new Map<string, ts.SourceFile | undefined>();

/**
 * Type-checks in-memory files together (strict unless asked otherwise, as the editor is not;
 * noUncheckedIndexedAccess; ES2023 without DOM unless asked: the sandbox has no DOM). Returns
 * the diagnostics as readable lines.
 */
export function compileErrors(files: Record<string, string>, options: { dom?: boolean; strict?: boolean } = {}): string[] {
  const compilerOptions: ts.CompilerOptions = {
    strict: options.strict ?? true,
    noEmit: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    lib: options.dom ? ["lib.es2023.d.ts", "lib.dom.d.ts"] : ["lib.es2023.d.ts"],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(compilerOptions);
  const original = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError) => {
    const text = files[fileName];
    if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true);
    const cacheKey = `${fileName}`;
    if (!libCache.has(cacheKey)) libCache.set(cacheKey, original(fileName, languageVersion, onError));
    return libCache.get(cacheKey);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => fileName in files || fileExists(fileName);
  const readFile = host.readFile.bind(host);
  host.readFile = (fileName) => files[fileName] ?? readFile(fileName);
  const program = ts.createProgram(Object.keys(files), compilerOptions, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file || d.start === undefined) return message;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName}:${line + 1}:${character + 1} ${message}`;
  });
}
