import { Lifetime, type QuickJSRuntime } from "quickjs-emscripten-core";

type ViewKind = Int32ArrayConstructor | Uint32ArrayConstructor;

interface EmscriptenHeap {
  HEAPU8: Uint8Array<ArrayBuffer>;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

interface ModuleMemoryPrototype {
  newTypedArray?: unknown;
  [PATCHED]?: true;
}

const PATCHED = Symbol.for("code-mode-playground.refreshable-memory-views");

/**
 * Works around quickjs-emscripten 0.32 reading out-parameters through a typed-array view made
 * before the FFI call: when the call grows WASM memory the view is detached, so
 * executePendingJobs reads an undefined context pointer (and newPromise throws), leaving
 * values that break the runtime's disposal. Upstream: justjake/quickjs-emscripten#240, with the
 * same fix in the open PR #248 (views re-created on access). Patches the library's internal
 * ModuleMemory prototype once; a no-op if its shape ever changes.
 */
export function refreshMemoryViews(runtime: QuickJSRuntime): void {
  const memory = (runtime as unknown as { memory?: object }).memory;
  const proto = memory === undefined ? undefined : (Object.getPrototypeOf(memory) as ModuleMemoryPrototype | null);
  if (!proto || typeof proto.newTypedArray !== "function" || proto[PATCHED]) return;
  proto.newTypedArray = function newTypedArray(this: { module: EmscriptenHeap }, kind: ViewKind, length: number) {
    const heap = this.module;
    const ptr = heap._malloc(length * kind.BYTES_PER_ELEMENT);
    const value = {
      ptr,
      // A fresh view on every read, so a grown (replaced) buffer is always the one read.
      get typedArray() {
        return new kind(heap.HEAPU8.buffer, ptr, length);
      },
    };
    value.typedArray.fill(0);
    return new Lifetime(value, undefined, (v) => heap._free(v.ptr));
  };
  proto[PATCHED] = true;
}
