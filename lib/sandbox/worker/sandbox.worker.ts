// Browser module-worker entry. The wasmfile variant: its .wasm is an asset the bundler emits (the
// variant asks for it with `new URL(..., import.meta.url)`), fetched and compiled as it streams;
// the singlefile variant's 1.2 MB of embedded base64 made the worker's cold start 145 ms instead
// of about 90 (docs/ARCHITECTURE.md, "The sandbox contract").
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import { cappedVariant } from "../wasm-memory";
import { attachSandboxWorker } from "../worker-entry";

attachSandboxWorker(self, async () => {
  const { default: variant } = await import("@jitl/quickjs-wasmfile-release-sync");
  return newQuickJSWASMModuleFromVariant(cappedVariant(variant));
});
