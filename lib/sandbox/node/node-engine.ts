import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import { createEngine, type EngineRunOptions, type SandboxEngine } from "../engine";
import { callHostFor, hostApiOf } from "../host-api";
import type { HostFunctions, RunRequest, RunResult } from "../types";
import { cappedVariant } from "../wasm-memory";

/** Which QuickJS build to load in Node: release for use, debug (assertions, leak sanitizer) for tests. */
export type NodeVariant = "release" | "debug";

/** Loads a fresh QuickJS WASM module in Node (the wasmfile variants read their .wasm from disk), memory capped. */
export async function loadNodeModule(variant: NodeVariant = "release") {
  // Imported lazily: the debug build is a devDependency, and nothing loads until a run needs it.
  const loaded = variant === "debug" ? await import("@jitl/quickjs-wasmfile-debug-sync") : await import("@jitl/quickjs-wasmfile-release-sync");
  return newQuickJSWASMModuleFromVariant(cappedVariant(loaded.default));
}

/** An engine for Node: the module loads on the first run (and again after a run poisoned or bloated it). */
export function loadNodeEngine(variant: NodeVariant = "release"): SandboxEngine {
  return createEngine(() => loadNodeModule(variant));
}

let shared: SandboxEngine | undefined;

/** Runs one request in-process against host functions, on a shared release engine. */
export function runInNode(request: RunRequest, host: HostFunctions = {}, options: Omit<EngineRunOptions, "hostApi"> = {}): Promise<RunResult> {
  shared ??= loadNodeEngine();
  return shared.run(request, callHostFor(host), { ...options, hostApi: hostApiOf(host) });
}
