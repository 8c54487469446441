"use client";

// Monaco from our own bundle, never a CDN: @monaco-editor/react's default loader fetches
// from a CDN and hangs offline, so it is pointed at the local package here. This module
// touches `self` and `window`, so it is only imported from client-only components.
import * as monaco from "monaco-editor";
import { loader } from "@monaco-editor/react";

declare global {
  interface Window {
    MonacoEnvironment?: monaco.Environment;
  }
}

// monaco-editor 0.56+ exposes its workers through package exports ("./*" → esm/vs/*.js);
// the old `monaco-editor/esm/vs/...` paths no longer resolve.
self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    if (label === "typescript" || label === "javascript") {
      return new Worker(new URL("monaco-editor/language/typescript/ts.worker", import.meta.url), { type: "module" });
    }
    return new Worker(new URL("monaco-editor/editor/editor.worker", import.meta.url), { type: "module" });
  },
};

/**
 * TypeScript diagnostics that are wrong for orchestration code: the sandbox runs the editor's
 * text as the body of an async function, so top-level `return` and `await` are allowed.
 */
const IGNORED_DIAGNOSTICS = [
  1108, // A 'return' statement can only be used within a function body.
  1375, // 'await' expressions are only allowed at the top level of a file when that file is a module…
  1378, // Top-level 'await' expressions are only allowed when the 'module' option is set to…
  1431, // 'for await' loops are only allowed at the top level of a file when that file is a module…
  1432, // Top-level 'for await' loops are only allowed when the 'module' option is set to…
  80005, // 'require' call may be converted to an import.
];

const ts = monaco.typescript;
ts.typescriptDefaults.setCompilerOptions({
  target: ts.ScriptTarget.ES2020,
  lib: ["es2023"],
  allowNonTsExtensions: true,
  strict: false,
  noImplicitAny: false,
  noEmit: true,
});
ts.typescriptDefaults.setDiagnosticsOptions({
  noSemanticValidation: false,
  noSyntaxValidation: false,
  diagnosticCodesToIgnore: IGNORED_DIAGNOSTICS,
});
// The guest's globals: ECMAScript built-ins plus console and callTool; no DOM.
ts.typescriptDefaults.addExtraLib(
  [
    "declare const console: { log(...a: unknown[]): void; info(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void; debug(...a: unknown[]): void };",
    "/** Calls any tool of any connected server by name. */",
    "declare function callTool(server: string, tool: string, args?: Record<string, unknown>): Promise<unknown>;",
  ].join("\n"),
  "file:///sandbox-globals.d.ts",
);

loader.config({ monaco });

export { monaco };
