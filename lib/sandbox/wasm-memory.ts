import { newVariant, type QuickJSSyncVariant } from "quickjs-emscripten-core";

const PAGE = 64 * 1024;

/**
 * The most linear memory one WASM module (one worker) may ever have. QuickJS's own memory
 * limit does not hold on its own here: Emscripten builds report no malloc_usable_size, so
 * the limit bounds single allocations but never adds up big strings, arrays and buffers
 * (justjake/quickjs-emscripten#271). A fixed maximum makes malloc fail, which QuickJS turns
 * into an ordinary out-of-memory error, instead of the tab or process running out.
 */
export const MODULE_MEMORY_CAP_BYTES = 512 * 1024 * 1024;

/** After a run leaves the module's memory bigger than this, the module is replaced to give it back. */
export const MODULE_MEMORY_RELOAD_BYTES = 64 * 1024 * 1024;

/** A memory limit for QuickJS itself: it takes a 32-bit size (4 GiB would wrap to 0 and fail every allocation). */
export function quickJsMemoryLimit(bytes: number): number {
  return Math.min(bytes, MODULE_MEMORY_CAP_BYTES);
}

// The variants' own default: 16 MB to start with.
const INITIAL_BYTES = 16 * 1024 * 1024;

/** A run's say over its module's memory growth: refused past `maxBytes` while `active`. */
export interface GrowthGate {
  maxBytes: number;
  active: boolean;
  onRefused: () => void;
}

const gates = new WeakMap<WebAssembly.Memory, Set<GrowthGate>>();

/**
 * The variant with its linear memory capped at MODULE_MEMORY_CAP_BYTES (a fresh Memory per
 * load) and growth gated per run: Emscripten grows memory through `memory.grow()` inside a
 * try/catch, so a refused growth is a failed malloc, which QuickJS reports as out of memory.
 * Given `wasmModule`, the variant instantiates that compiled module instead of fetching its .wasm.
 */
export function cappedVariant<T extends QuickJSSyncVariant>(variant: T, wasmModule?: () => Promise<WebAssembly.Module>): T {
  return newVariant(variant, {
    ...(wasmModule ? { wasmModule } : {}),
    wasmMemory: () => {
      const memory = new WebAssembly.Memory({ initial: INITIAL_BYTES / PAGE, maximum: MODULE_MEMORY_CAP_BYTES / PAGE });
      const grow = memory.grow.bind(memory);
      memory.grow = (delta: number) => {
        const after = memory.buffer.byteLength + delta * PAGE;
        const active = [...(gates.get(memory) ?? [])].filter((gate) => gate.active);
        const refusing = active.find((gate) => after > gate.maxBytes);
        try {
          if (refusing) throw new RangeError("The sandbox run's memory limit refused to grow WASM memory");
          return grow(delta);
        } catch (error) {
          // Refused by a gate or by the cap: either way the running guest is out of memory.
          for (const gate of active) gate.onRefused();
          throw error;
        }
      };
      return Promise.resolve(memory);
    },
  });
}

/** Registers a run's gate on a module's memory; returns the function that removes it. */
export function gateGrowth(memory: WebAssembly.Memory, gate: GrowthGate): () => void {
  let set = gates.get(memory);
  if (!set) gates.set(memory, (set = new Set()));
  set.add(gate);
  return () => set.delete(gate);
}
