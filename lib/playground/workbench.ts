/**
 * The page's workbench (docs/page-state.md, "Page state"): the sandbox worker and the run on it,
 * the session's runs, mocks, replay, approvals and the recorder, created once per page. Panels
 * read its stores; every run goes through `run()`, whose host functions are the live servers
 * behind the debugging tools in their fixed order (lib/host-calls/debug-host.ts), and whose
 * record lands in the history. Everything a run needs is read when it starts, so nothing here
 * holds a "latest value" copy of anything.
 */
import { errorResult, NO_RUN_STATS } from "../sandbox/errors";
import { RunController, type WorkerLike } from "../sandbox/run-controller";
import type { HostFunctions, RunEvent, RunRequest, RunResult, SandboxLimits } from "../sandbox/types";
import { hostApiOf } from "../sandbox/host-api";
import type { ServerTools } from "../codemode/types";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { buildDebugHost } from "../host-calls/debug-host";
import { callForApp, type AppCallOptions } from "./app-call";
import type { ApprovalPolicy, CallDecider, PresetDecision } from "../host-calls/approvals";
import type { CallProgress, CallRecordsAction } from "../timeline/call-records";
import { defaultFrameClock, FrameQueue, type FrameClock } from "../timeline/frame-queue";
import { LiveRunStore } from "../timeline/live-run-store";
import { explainNotConnected } from "../host-calls/unavailable";
import { namespacesOf } from "../timeline/namespaces";
import { RunRecorder, type HostReport } from "../timeline/recorder";
import type { RunRecord } from "../timeline/run-record";
import type { RunViewAction } from "../timeline/run-view";
import type { RunSource } from "../timeline/history";
import { RunHistory } from "./run-history";
import { MockStore } from "./mock-store";
import { PageApprovals } from "./page-approvals";
import { ReplayStore, RunInViewStore, SandboxStore, type ReplayChoice } from "./workbench-stores";

export type { ReplayChoice, ReplayState, SandboxState } from "./workbench-stores";
export type { AppCallOptions } from "./app-call";
import type { Skill } from "../skills/skill";
import { withSkills } from "../skills/skill-host";

/** The connected servers, as a run reads them when it starts. */
export interface LiveHost {
  /** Host functions for one run: one namespace per server; `report` ties what the host learns to the call's row. */
  hostFor(report: (callId: number, info: HostReport) => void, onProgress?: (callId: number, progress: CallProgress) => void): HostFunctions;
  /** The connected servers' names and tools now. */
  servers(): readonly ServerTools[];
  /** Host functions for one server's MCP App: every tool an app may call (PageServers.appHostFor). */
  appHostFor?(
    server: string,
    report: (callId: number, info: HostReport) => void,
    onProgress?: (callId: number, progress: CallProgress) => void,
  ): { host: HostFunctions; server: ServerTools } | undefined;
  /** The MCP Apps of a finished run's calls, to keep with its record (PageServers.appsOf). */
  appsOf?(record: RunRecord): Promise<Readonly<Record<string, unknown>>>;
  /** The namespaces of registered servers programs cannot call now, with why (PageServers.notConnected). */
  notConnected?(): ReadonlyMap<string, string>;
}

/** Runs that borrow the Output while they run and give it back (their record stays in the history). */
const BORROWED_OUTPUT: ReadonlySet<RunSource> = new Set(["eval", "compare"]);

export interface RunOptions {
  /** The person approved this program as a whole (step mode): its calls that need approval go through, marked so. */
  preApproved?: boolean;
  /** Calls that need approval decided in advance (evals: the suite's policy); "ask" (the default) puts them to the person. */
  destructive?: PresetDecision | "ask";
  /** Told how long each approval waited for the person, so an eval's wall time can leave it out. */
  onWaited?: (ms: number) => void;
  /** Where the run comes from, for the history (default: the editor). */
  source?: RunSource;
  limits?: Partial<SandboxLimits>;
  /** Wraps the prepared host functions (evals record each MCP call); `names` as the code sees them. */
  wrapHost?: (host: HostFunctions, names: ReturnType<typeof namespacesOf>) => HostFunctions;
  /** Told the run's record once it is in the history (the chat links its tool call to it). */
  onRecorded?: (record: RunRecord) => void;
  /** The program's `data` globals (the editor's inputs); kept in the record, a skill's inputs. */
  data?: Record<string, unknown>;
}

export interface WorkbenchOptions {
  createWorker: () => WorkerLike;
  live: LiveHost;
  frameClock?: FrameClock;
  /**
   * Resolves once the page has shown a run's start; the worker gets the run then. In the browser,
   * after React's render: otherwise that render sits inside the first tool call (docs/speed.md, "The live path").
   */
  afterStart?: () => Promise<void>;
  /** When the sandbox worker makes its warm-up run (RunControllerOptions.whenIdle). */
  whenIdle?: (warm: () => void) => void;
  /** How often a streaming run reaches the live store (default 50 ms: reads as live, leaves the thread to the calls). */
  renderIntervalMs?: number;
  /** The skills a run may call (`skills.<name>`), read when it starts (lib/skills/). */
  skills?: () => readonly Skill[];
  /** Names of skills held for review: calling one fails saying so, rather than "skills is not defined". */
  heldSkills?: () => readonly string[];
}

/** An observer (the recorder) must never break a run. */
function notify(call: () => void): void {
  try {
    call();
  } catch {
    // ignored on purpose
  }
}

const failed = (message: string): RunResult => errorResult({ kind: "busy", message });

export class Workbench {
  /** The current run's view and call records. */
  readonly live = new LiveRunStore();
  readonly sandbox = new SandboxStore({ ready: false, ranCode: undefined });
  readonly history = new RunHistory();
  readonly mocks: MockStore;
  readonly approvals: PageApprovals;
  readonly replay = new ReplayStore({ choice: undefined, divergence: undefined });
  /** Which recorded run the timeline shows: the Runs list's "view" and the chat's "Show run" set it. */
  readonly runInView = new RunInViewStore(undefined);
  readonly #controller: RunController;
  /** The worker skills' programs run in, started on first use: the main one is busy with the run that called the skill. */
  #skillController: RunController | undefined;
  readonly #queue: FrameQueue<[RunViewAction | undefined, CallRecordsAction]>;
  readonly #options: WorkbenchOptions;
  #cancel: (() => void) | undefined;
  #disposed = false;

  constructor(options: WorkbenchOptions) {
    this.#options = options;
    this.mocks = new MockStore(options.createWorker);
    this.approvals = new PageApprovals(() => options.live.servers());
    // What a run streams reaches the store in one batch per frame (lib/timeline/frame-queue.ts); a run's start and end at once.
    this.#queue = new FrameQueue(
      (items) =>
        this.live.apply(
          items.flatMap(([view]) => (view ? [view] : [])),
          items.map(([, call]) => call),
        ),
      100,
      options.frameClock ?? defaultFrameClock(),
      options.renderIntervalMs ?? 50,
    );
    this.#controller = new RunController({ createWorker: options.createWorker, ...(options.whenIdle ? { whenIdle: options.whenIdle } : {}) });
  }

  /** Starts the worker so the first run does not pay for WASM start-up; `ready` turns true once it answers. */
  start(): void {
    this.#controller.warmUp().then(
      () => this.#disposed || this.sandbox.update({ ready: true }),
      () => undefined,
    );
  }

  /** Server and tool names as the code sees them, for the servers connected now. */
  namespaces(): ReturnType<typeof namespacesOf> {
    return namespacesOf(this.#options.live.servers());
  }

  /** Whether a run is going. */
  get running(): boolean {
    return this.#cancel !== undefined;
  }

  /**
   * Runs a program against the connected servers through mocks, replay and approvals, records it
   * into the history, and resolves with its result (a run started while the worker warms up waits
   * for it). While another run is going, resolves at once with a `busy` error.
   */
  run(code: string, options: RunOptions = {}): Promise<RunResult> {
    if (this.#disposed) return Promise.resolve(failed("The sandbox was shut down."));
    if (this.#cancel) return Promise.resolve(failed("Another run is in progress: stop it first."));
    const replay = this.replay.snapshot().choice;
    const names = this.namespaces();
    const source = options.source ?? "editor";
    let recorder: RunRecorder | undefined;
    // Host reports that arrive before the recorder exists (it needs the run's id and API).
    const early: Array<[number, HostReport]> = [];
    let runId = "";
    const onInfo = (callId: number, info: HostReport) => {
      this.#queue.push([undefined, { type: "info", runId, callId, info }]);
      if (recorder) recorder.onCallInfo(callId, info);
      else early.push([callId, info]);
    };
    // When each call started on the engine's clock: a skill's nested calls are timed from their parent's start.
    const callStarts = new Map<number, number>();
    const onEvent = (event: RunEvent) => {
      if (event.type === "call-start") callStarts.set(event.callId, event.time);
      this.#queue.push([
        { type: "event", runId, event },
        { type: "event", runId, event },
      ]);
      notify(() => recorder?.onEvent(event));
    };
    this.replay.diverged(undefined);
    // An eval's or a comparison's run shows live while it runs, then the Output is the editor's again.
    const editorsOutput = BORROWED_OUTPUT.has(source) ? { live: this.live.snapshot(), ranCode: this.sandbox.snapshot().ranCode } : undefined;
    const host = this.#prepareHost(onInfo, onEvent, (callId) => callStarts.get(callId), names, replay, options);
    const request: RunRequest = {
      code,
      ...(options.limits && Object.keys(options.limits).length > 0 ? { limits: options.limits } : {}),
      ...(options.data && Object.keys(options.data).length > 0 ? { data: options.data } : {}),
    };
    this.sandbox.update({ ranCode: code });
    const handle = this.#controller.run(request, host, onEvent, this.#options.afterStart ? { after: this.#options.afterStart() } : {});
    runId = handle.runId;
    notify(() => {
      recorder = new RunRecorder({
        id: runId,
        code,
        api: hostApiOf(host),
        names,
        ...(request.limits ? { limits: request.limits } : {}),
        ...(request.data ? { data: request.data } : {}),
        ...(replay ? { replayOf: replay.record.id } : {}),
      });
      for (const [callId, info] of early.splice(0)) recorder.onCallInfo(callId, info);
    });
    this.#cancel = handle.cancel;
    this.#queue.flush();
    this.live.apply([{ type: "start", runId, startedAt: Date.now() }], [{ type: "reset", runId }]);
    return handle.result
      .catch((error: unknown): RunResult => ({
        ok: false,
        error: { kind: "runtime", message: `The sandbox failed: ${String(error)}` },
        logs: [],
        stats: NO_RUN_STATS,
      }))
      .then((ran) => {
        // A program naming a registered server that is not connected is told why (lib/host-calls/unavailable.ts).
        const result: RunResult =
          !ran.ok && ran.error.kind === "runtime"
            ? { ...ran, error: { ...ran.error, message: explainNotConnected(ran.error.message, this.#options.live.notConnected?.()) } }
            : ran;
        this.#cancel = undefined;
        this.#queue.flush();
        this.live.apply([{ type: "finish", runId, result }], [{ type: "finish", runId, result }]);
        if (editorsOutput) {
          this.live.restore(editorsOutput.live);
          this.sandbox.update({ ranCode: editorsOutput.ranCode });
        }
        // An armed replay answers one run: the next Run is live again unless the person re-arms it.
        if (replay) this.replay.arm(undefined);
        // A prompt left open belongs to a run that is over.
        this.approvals.broker.denyAll();
        const finished = recorder;
        if (finished)
          notify(() => {
            const record = finished.finish(result);
            this.history.add(record, source);
            options.onRecorded?.(record);
            // The apps of its calls' tools come along once read, so the run shows them offline too.
            void this.#options.live.appsOf?.(record).then(
              (apps) => Object.keys(apps).length > 0 && this.history.attachApps(record.id, apps),
              () => undefined,
            );
          });
        return result;
      });
  }

  /**
   * One `tools/call` from an MCP App of `server` (docs/mcp-apps.md, "MCP Apps"), through the
   * host functions every program's call goes through: arguments checked against the input
   * schema, the person's mocks, approval for destructive and marked tools (asked through
   * `options.ask`, beside the app), the server's cap. It is recorded as a one-call run from
   * "app" in the history, so the timeline shows it. Resolves with the raw result the server sent
   * (a mock's value, or a refusal, as a result built from it); never rejects.
   */
  callForApp(server: string, tool: string, args: Record<string, unknown> | undefined, options: AppCallOptions): Promise<CallToolResult> {
    return callForApp(
      { live: this.#options.live, approvals: this.approvals, mocks: this.mocks, record: (record) => notify(() => this.history.add(record, "app")) },
      server,
      tool,
      args,
      options,
    );
  }

  /** Cancels the run that is going, if any. */
  stop(): void {
    this.#cancel?.();
  }

  /** Ends the worker and every waiting prompt. */
  dispose(): void {
    this.#disposed = true;
    this.#queue.dispose();
    this.approvals.broker.denyAll();
    this.#controller.dispose();
    this.#skillController?.dispose();
    this.mocks.dispose();
  }

  /**
   * Runs a skill's program (lib/skills/skill-host.ts) in the skills' own worker; runs queue there,
   * one at a time. Its host functions are the calling run's (or a test's replay).
   */
  readonly runSkill = (request: RunRequest, host: HostFunctions, onEvent: (event: RunEvent) => void, signal: AbortSignal): Promise<RunResult> => {
    if (this.#disposed) return Promise.resolve(failed("The sandbox was shut down."));
    this.#skillController ??= new RunController({ createWorker: this.#options.createWorker });
    const handle = this.#skillController.run(request, host, onEvent);
    signal.addEventListener("abort", handle.cancel, { once: true });
    return handle.result.finally(() => signal.removeEventListener("abort", handle.cancel));
  };

  /**
   * Who approves a run's calls (lib/host-calls/approvals.ts): the calls that need approval (the
   * destructive tools connected now, and the ones the person marked) go to the person, unless the
   * program was approved as a whole in step mode or the run decided them before it started.
   * `program` says whether a model's program waits in the editor first (step mode).
   */
  policy(options: Pick<RunOptions, "preApproved" | "destructive" | "onWaited"> & { stepMode?: boolean } = {}): ApprovalPolicy {
    const preset: PresetDecision | undefined = options.preApproved ? "approve" : options.destructive === "ask" ? undefined : options.destructive;
    const { onWaited } = options;
    const ask = this.approvals.broker.request;
    const request: typeof ask = onWaited
      ? async (...args) => {
          const started = performance.now();
          try {
            return await ask(...args);
          } finally {
            onWaited(performance.now() - started);
          }
        }
      : ask;
    const decider: CallDecider = preset !== undefined ? { by: "policy", decision: preset } : { by: "person", request };
    return { program: options.stepMode ? "ask" : "run", needsApproval: this.approvals.needsApproval, decider: () => decider };
  }

  #prepareHost(
    onInfo: (callId: number, info: HostReport) => void,
    onEvent: (event: RunEvent) => void,
    callStart: (callId: number) => number | undefined,
    names: ReturnType<typeof namespacesOf>,
    replay: ReplayChoice | undefined,
    options: RunOptions,
  ): HostFunctions {
    const onProgress = (callId: number, progress: CallProgress) => onInfo(callId, { progress: { ...progress } });
    const policy = this.policy(options);
    const host = buildDebugHost({
      live: this.#options.live.hostFor(onInfo, onProgress),
      names,
      onInfo,
      policy,
      mocks: this.mocks.snapshot(),
      runScript: this.mocks.runScript,
      ...(replay ? { replay: { record: replay.record, onMismatch: replay.onMismatch, onDivergence: (d) => this.replay.diverged(d) } } : {}),
    });
    const wrapped = options.wrapHost ? options.wrapHost(host, names) : host;
    // Skills run their programs over the same host functions (mocks, approvals, replay), their calls nested under theirs.
    const skills = this.#options.skills?.() ?? [];
    const held = this.#options.heldSkills?.() ?? [];
    return withSkills(wrapped, skills, {
      run: this.runSkill,
      onEvent,
      onInfo,
      callStart,
      ...(held.length > 0 ? { held } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    });
  }
}
