// Browser module-worker entry, bundled on its own by scripts/build-worker.mjs into
// public/_sandbox/sandbox-worker.js (docs/sandbox.md, "The sandbox contract"). The wasmfile
// variant: the .wasm sits beside the worker (its name comes from the build), and the worker's URL
// fragment says whether the page will post a compiled module (`init`, an earlier worker's).
// Without one the worker compiles the .wasm as it streams, at once, and reports the module with
// `wasm`, for the page's next workers. (The singlefile variant's 1.2 MB of embedded base64 made
// the cold start 145 ms instead of about 90.)
import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import { parseWorkerBoot } from "../compiled-module";
import type { WasmModuleMessage } from "../protocol";
import { cappedVariant } from "../wasm-memory";
import { attachSandboxWorker } from "../worker-entry";

/** The .wasm's address relative to this script, set by scripts/build-worker.mjs. */
declare const __SANDBOX_WASM__: string;

const boot = parseWorkerBoot(self.location.hash);
let own: Promise<WebAssembly.Module> | undefined;

/** This worker's own compile of the .wasm; a failed one is not kept, so a reload tries again. */
function ownModule(): Promise<WebAssembly.Module> {
  own ??= WebAssembly.compileStreaming(fetch(new URL(__SANDBOX_WASM__, import.meta.url))).then(
    (module) => {
      const message: WasmModuleMessage = { type: "wasm", runId: null, module };
      self.postMessage(message);
      return module;
    },
    (error: unknown) => {
      own = undefined;
      throw error;
    },
  );
  return own;
}

attachSandboxWorker(self, (compiled) => newQuickJSWASMModuleFromVariant(cappedVariant(variant, () => (compiled ? Promise.resolve(compiled) : ownModule()))), {
  awaitInit: boot.awaitModule,
});
