// Browser module-worker entry, bundled on its own by scripts/build-worker.mjs into
// public/_sandbox/sandbox-worker.js (docs/ARCHITECTURE.md, "The sandbox contract"). The wasmfile
// variant, instantiated from the compiled module the page's `init` brings (an earlier worker's);
// without one the worker compiles the .wasm at `init.wasmUrl` as it streams and reports the module
// with `wasm`, for the page's next workers. (The singlefile variant's 1.2 MB of embedded base64
// made the cold start 145 ms instead of about 90.)
import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import type { WasmModuleMessage } from "../protocol";
import { cappedVariant } from "../wasm-memory";
import { attachSandboxWorker } from "../worker-entry";

let own: Promise<WebAssembly.Module> | undefined;

/** This worker's own compile of the .wasm; a failed one is not kept, so a reload tries again. */
function ownModule(wasmUrl: string): Promise<WebAssembly.Module> {
  own ??= WebAssembly.compileStreaming(fetch(wasmUrl)).then(
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

attachSandboxWorker(
  self,
  (init) => {
    if (!init) throw new Error("the sandbox worker loads only after init");
    const { module, wasmUrl } = init;
    return newQuickJSWASMModuleFromVariant(cappedVariant(variant, () => (module ? Promise.resolve(module) : ownModule(wasmUrl))));
  },
  { awaitInit: true },
);
