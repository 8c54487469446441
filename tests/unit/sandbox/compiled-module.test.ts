import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import { describe, expect, it } from "vitest";
import { CompiledModuleShare, parseWorkerBoot, workerBootHash } from "@/lib/sandbox/compiled-module";
import type { DoneMessage, MainToWorker, RefusedMessage, WorkerToMain } from "@/lib/sandbox/protocol";
import type { WorkerLike } from "@/lib/sandbox/run-controller";
import { cappedVariant } from "@/lib/sandbox/wasm-memory";
import { attachSandboxWorker, type AttachOptions } from "@/lib/sandbox/worker-entry";
import { nextMessage, portPair } from "./ports";

// The same .wasm the browser worker fetches (the package's "./wasm" export), compiled here once.
const compiledQuickJs = readFile(createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm")).then((bytes) =>
  WebAssembly.compile(bytes),
);

/** A worker loading QuickJS from the compiled module init brings (Node's variant reads its own .wasm without one); records what each load got. */
function attachedWorker(options: AttachOptions) {
  const { main, worker } = portPair();
  const loads: Array<WebAssembly.Module | undefined> = [];
  attachSandboxWorker(
    worker,
    (compiled) => {
      loads.push(compiled);
      return newQuickJSWASMModuleFromVariant(cappedVariant(variant, compiled ? () => Promise.resolve(compiled) : undefined));
    },
    options,
  );
  const refused = () => nextMessage(main, (m): m is RefusedMessage => m.type === "refused");
  const done = (runId: string) => nextMessage(main, (m): m is DoneMessage => m.type === "done" && m.runId === runId);
  return { main, loads, refused, done };
}

describe("a worker that waits for init", () => {
  it("loads nothing and refuses runs until init arrives", async () => {
    const { main, loads, refused } = attachedWorker({ awaitInit: true });
    main.postMessage({ type: "run", runId: "r1", request: { code: "return 1" }, hostApi: {} });
    expect(await refused()).toEqual({ type: "refused", runId: "r1", reason: "run: the worker waits for init" });
    expect(loads).toEqual([]);
  });

  it("instantiates QuickJS from the compiled module init brings, and runs on it", async () => {
    const { main, loads, done } = attachedWorker({ awaitInit: true });
    const module = await compiledQuickJs;
    main.postMessage({ type: "init", runId: null, module });
    expect(await nextMessage(main, (m) => m.type === "ready")).toEqual({ type: "ready", runId: null });
    main.postMessage({ type: "run", runId: "r1", request: { code: "return 6 * 7" }, hostApi: {} });
    expect((await done("r1")).result).toMatchObject({ ok: true, value: 42 });
    expect(loads).toHaveLength(1);
    expect(loads[0]).toBeInstanceOf(WebAssembly.Module);
  });

  it("reloads from the same compiled module after a run bloats the WASM memory", async () => {
    const { main, loads, done } = attachedWorker({ awaitInit: true });
    const module = await compiledQuickJs;
    main.postMessage({ type: "init", runId: null, module });
    const bomb = "const keep = [];\nwhile (true) keep.push(new Uint8Array(1 << 20));";
    main.postMessage({ type: "run", runId: "r1", request: { code: bomb, limits: { memoryBytes: 96 * 1024 * 1024, cpuMs: 5_000 } }, hostApi: {} });
    expect((await done("r1")).result).toMatchObject({ ok: false, error: { kind: "memory" } });
    main.postMessage({ type: "run", runId: "r2", request: { code: "return 1" }, hostApi: {} });
    expect((await done("r2")).result).toMatchObject({ ok: true, value: 1 });
    // The reload gets the very module init brought (a structured clone of the page's).
    expect(loads).toHaveLength(2);
    expect(loads[0]).toBeInstanceOf(WebAssembly.Module);
    expect(loads[1]).toBe(loads[0]);
  });

  it("refuses an init without a compiled module, and a second init", async () => {
    const { main, refused } = attachedWorker({ awaitInit: true });
    const module = await compiledQuickJs;
    main.postMessage({ type: "init", runId: null, module: "not a module" } as unknown as MainToWorker);
    expect(await refused()).toEqual({ type: "refused", runId: null, reason: "malformed message" });
    main.postMessage({ type: "init", runId: null } as unknown as MainToWorker);
    expect(await refused()).toEqual({ type: "refused", runId: null, reason: "malformed message" });
    main.postMessage({ type: "init", runId: null, module });
    await nextMessage(main, (m) => m.type === "ready");
    main.postMessage({ type: "init", runId: null, module });
    expect(await refused()).toEqual({ type: "refused", runId: null, reason: "init: the worker has started already" });
  });

  it("a worker that does not wait loads at once and refuses init", async () => {
    const { main, loads } = attachedWorker({});
    expect(await nextMessage(main, (m) => m.type === "ready")).toEqual({ type: "ready", runId: null });
    expect(loads).toEqual([undefined]);
    main.postMessage({ type: "init", runId: null, module: await compiledQuickJs });
    expect(await nextMessage(main, (m): m is RefusedMessage => m.type === "refused")).toMatchObject({ reason: "init: the worker has started already" });
  });
});

describe("a worker's boot fragment", () => {
  it("says whether a module is coming, and is empty when none is, so the page's first worker has the plain script URL", () => {
    expect(workerBootHash({ awaitModule: false })).toBe("");
    for (const awaitModule of [true, false]) expect(parseWorkerBoot(workerBootHash({ awaitModule }))).toEqual({ awaitModule });
  });

  it("expects no module unless the fragment says exactly so", () => {
    for (const hash of ["", "#", "#module=", "#module=yes", "#other=1", "#wasm=%2Fa.wasm"]) expect(parseWorkerBoot(hash)).toEqual({ awaitModule: false });
    expect(parseWorkerBoot("#other=x&module=1")).toEqual({ awaitModule: true });
  });
});

/** A worker stand-in that records its URL and what it was sent, and lets the test post back. */
function fakeWorker(url: string) {
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
  return { url, worker, sent, reply };
}

describe("CompiledModuleShare", () => {
  const SCRIPT = "/_sandbox/sandbox-worker.js";

  it("starts the first worker loading at once, and later ones waiting for init with the module it compiled", async () => {
    const share = new CompiledModuleShare();
    const module = await compiledQuickJs;
    let first: ReturnType<typeof fakeWorker> | undefined;
    share.start(SCRIPT, (url) => (first = fakeWorker(url)).worker);
    expect(first?.url).toBe(SCRIPT);
    expect(first && parseWorkerBoot(new URL(first.url, "http://x").hash)).toEqual({ awaitModule: false });
    expect(first?.sent).toEqual([]);
    first?.reply({ type: "ready", runId: null });
    expect(share.known).toBe(false);
    first?.reply({ type: "wasm", runId: null, module });
    expect(share.known).toBe(true);
    let second: ReturnType<typeof fakeWorker> | undefined;
    share.start(SCRIPT, (url) => (second = fakeWorker(url)).worker);
    expect(second && parseWorkerBoot(new URL(second.url, "http://x").hash)).toEqual({ awaitModule: true });
    expect(second?.sent).toEqual([{ type: "init", runId: null, module }]);
  });

  it("keeps the first module and ignores a wasm message that carries anything else", async () => {
    const module = await compiledQuickJs;
    let fake: ReturnType<typeof fakeWorker> | undefined;
    const share = new CompiledModuleShare();
    share.start(SCRIPT, (url) => (fake = fakeWorker(url)).worker);
    fake?.reply({ type: "wasm", runId: null, module: { forged: true } });
    fake?.reply({ type: "wasm", runId: null, module: new Uint8Array([0, 97, 115, 109]) });
    expect(share.known).toBe(false);
    fake?.reply({ type: "wasm", runId: null, module });
    fake?.reply({ type: "wasm", runId: null, module: new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])) });
    let next: ReturnType<typeof fakeWorker> | undefined;
    share.start(SCRIPT, (url) => (next = fakeWorker(url)).worker);
    expect((next?.sent[0] as { module?: unknown } | undefined)?.module).toBe(module);
  });
});
