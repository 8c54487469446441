// Browser module-worker entry. The singlefile variant embeds its WASM, so no bundler has to
// get a .wasm URL right (docs/ARCHITECTURE.md, "The sandbox contract").
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import { cappedVariant } from "../wasm-memory";
import { attachSandboxWorker } from "../worker-entry";

attachSandboxWorker(self, async () => {
  const { default: variant } = await import("@jitl/quickjs-singlefile-browser-release-sync");
  return newQuickJSWASMModuleFromVariant(cappedVariant(variant));
});
