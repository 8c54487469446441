import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import { describe, expect, it } from "vitest";
import { CompiledModuleShare } from "@/lib/sandbox/compiled-module";
import type { DoneMessage, MainToWorker, RefusedMessage, WorkerToMain } from "@/lib/sandbox/protocol";
import type { WorkerLike } from "@/lib/sandbox/run-controller";
import { cappedVariant } from "@/lib/sandbox/wasm-memory";
import { attachSandboxWorker } from "@/lib/sandbox/worker-entry";
import { nextMessage, portPair } from "./ports";

const WASM_URL = "/_next/static/media/emscripten-module.wasm";

// The same .wasm the browser worker fetches (the package's "./wasm" export), compiled here once.
const compiledQuickJs = readFile(createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm")).then((bytes) =>
  WebAssembly.compile(bytes),
);

/** A worker that waits for init, loading QuickJS from the compiled module it is given; records what each load got. */
function initWorker() {
  const { main, worker } = portPair();
  const loads: Array<WebAssembly.Module | undefined> = [];
  attachSandboxWorker(
    worker,
    (init) => {
      const compiled = init?.module;
      loads.push(compiled);
      // Node's variant reads its own .wasm from disk when no compiled module is given.
      return newQuickJSWASMModuleFromVariant(cappedVariant(variant, compiled ? () => Promise.resolve(compiled) : undefined));
    },
    { awaitInit: true },
  );
  const refused = () => nextMessage(main, (m): m is RefusedMessage => m.type === "refused");
  const done = (runId: string) => nextMessage(main, (m): m is DoneMessage => m.type === "done" && m.runId === runId);
  return { main, loads, refused, done };
}

describe("a worker that waits for init", () => {
  it("loads nothing and refuses runs until init arrives", async () => {
    const { main, loads, refused } = initWorker();
    main.postMessage({ type: "run", runId: "r1", request: { code: "return 1" }, hostApi: {} });
    expect(await refused()).toEqual({ type: "refused", runId: "r1", reason: "run: the worker waits for init" });
    expect(loads).toEqual([]);
  });

  it("instantiates QuickJS from the compiled module init brings, and runs on it", async () => {
    const { main, loads, done } = initWorker();
    const module = await compiledQuickJs;
    main.postMessage({ type: "init", runId: null, wasmUrl: WASM_URL, module });
    expect(await nextMessage(main, (m) => m.type === "ready")).toEqual({ type: "ready", runId: null });
    main.postMessage({ type: "run", runId: "r1", request: { code: "return 6 * 7" }, hostApi: {} });
    expect((await done("r1")).result).toMatchObject({ ok: true, value: 42 });
    expect(loads).toHaveLength(1);
    expect(loads[0]).toBeInstanceOf(WebAssembly.Module);
  });

  it("without a module in init, loads the variant's own .wasm", async () => {
    const { main, loads, done } = initWorker();
    main.postMessage({ type: "init", runId: null, wasmUrl: WASM_URL });
    main.postMessage({ type: "run", runId: "r1", request: { code: "return 'own'" }, hostApi: {} });
    expect((await done("r1")).result).toMatchObject({ ok: true, value: "own" });
    expect(loads).toEqual([undefined]);
  });

  it("reloads from the same compiled module after a run bloats the WASM memory", async () => {
    const { main, loads, done } = initWorker();
    const module = await compiledQuickJs;
    main.postMessage({ type: "init", runId: null, wasmUrl: WASM_URL, module });
    const bomb = "const keep = [];\nwhile (true) keep.push(new Uint8Array(1 << 20));";
    main.postMessage({ type: "run", runId: "r1", request: { code: bomb, limits: { memoryBytes: 96 * 1024 * 1024, cpuMs: 5_000 } }, hostApi: {} });
    expect((await done("r1")).result).toMatchObject({ ok: false, error: { kind: "memory" } });
    main.postMessage({ type: "run", runId: "r2", request: { code: "return 1" }, hostApi: {} });
    expect((await done("r2")).result).toMatchObject({ ok: true, value: 1 });
    expect(loads.length).toBe(2);
    expect(loads.every((given) => given === loads[0])).toBe(true);
  });

  it("refuses a second init and an init whose module is not a compiled module", async () => {
    const { main, refused } = initWorker();
    main.postMessage({ type: "init", runId: null, wasmUrl: WASM_URL, module: "not a module" } as unknown as MainToWorker);
    expect(await refused()).toEqual({ type: "refused", runId: null, reason: "malformed message" });
    main.postMessage({ type: "init", runId: null } as unknown as MainToWorker);
    expect(await refused()).toEqual({ type: "refused", runId: null, reason: "malformed message" });
    main.postMessage({ type: "init", runId: null, wasmUrl: WASM_URL });
    await nextMessage(main, (m) => m.type === "ready");
    main.postMessage({ type: "init", runId: null, wasmUrl: WASM_URL });
    expect(await refused()).toEqual({ type: "refused", runId: null, reason: "init: the worker has started already" });
  });

  it("a worker attached without awaitInit refuses init", async () => {
    const { main, worker } = portPair();
    attachSandboxWorker(worker, () => newQuickJSWASMModuleFromVariant(cappedVariant(variant)));
    main.postMessage({ type: "init", runId: null, wasmUrl: WASM_URL });
    expect(await nextMessage(main, (m): m is RefusedMessage => m.type === "refused")).toMatchObject({ reason: "init: the worker has started already" });
  });
});

/** A worker stand-in that records what it was sent and lets the test post back. */
function fakeWorker() {
  const sent: MainToWorker[] = [];
  const listeners: Array<(event: MessageEvent) => void> = [];
  const worker: WorkerLike = {
    postMessage: (message) => sent.push(message),
    addEventListener: (type: string, listener: (event: never) => void) => {
      if (type === "message") listeners.push(listener as (event: MessageEvent) => void);
    },
    terminate: () => undefined,
  };
  const reply = (data: WorkerToMain | Record<string, unknown>) => listeners.forEach((listener) => listener({ data } as MessageEvent));
  return { worker, sent, reply };
}

describe("CompiledModuleShare", () => {
  it("gives every worker init first, and later workers the module the first one compiled", async () => {
    const share = new CompiledModuleShare(WASM_URL);
    const module = await compiledQuickJs;
    const first = fakeWorker();
    share.start(first.worker);
    expect(first.sent).toEqual([{ type: "init", runId: null, wasmUrl: WASM_URL }]);
    first.reply({ type: "ready", runId: null });
    expect(share.known).toBe(false);
    first.reply({ type: "wasm", runId: null, module });
    expect(share.known).toBe(true);
    const second = fakeWorker();
    share.start(second.worker);
    expect(second.sent).toEqual([{ type: "init", runId: null, wasmUrl: WASM_URL, module }]);
  });

  it("keeps the first module and ignores a wasm message that carries anything else", async () => {
    const share = new CompiledModuleShare(WASM_URL);
    const module = await compiledQuickJs;
    const first = fakeWorker();
    share.start(first.worker);
    first.reply({ type: "wasm", runId: null, module: { forged: true } });
    first.reply({ type: "wasm", runId: null, module: new Uint8Array([0, 97, 115, 109]) });
    expect(share.known).toBe(false);
    first.reply({ type: "wasm", runId: null, module });
    first.reply({ type: "wasm", runId: null, module: new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])) });
    const next = fakeWorker();
    share.start(next.worker);
    expect((next.sent[0] as { module?: unknown }).module).toBe(module);
  });
});
