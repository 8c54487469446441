// Browser module-worker entry. The wasmfile variant: its .wasm is an asset the bundler emits, fetched
// and compiled as it streams; the singlefile variant's 1.2 MB of embedded base64 made the worker's
// cold start 145 ms instead of about 90 (docs/ARCHITECTURE.md, "The sandbox contract"). The worker
// compiles the .wasm itself only when the page's `init` brings no compiled module; what it compiles
// it reports with `wasm`, so the page's next worker (after Stop, a timeout, a crash) skips the
// download, the compile and the lazy compilation of the functions a run needs.
import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import type { WasmModuleMessage } from "../protocol";
import { cappedVariant } from "../wasm-memory";
import { attachSandboxWorker } from "../worker-entry";

const WASM_URL = new URL("@jitl/quickjs-wasmfile-release-sync/wasm", import.meta.url);

let own: Promise<WebAssembly.Module> | undefined;

/** This worker's own compile of the .wasm, reported to the page; a failed one is not kept, so a reload tries again. */
function ownModule(): Promise<WebAssembly.Module> {
  own ??= WebAssembly.compileStreaming(fetch(WASM_URL)).then(
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
  awaitInit: true,
});
