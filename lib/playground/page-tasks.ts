/**
 * The page's long tasks (docs/page-state.md, "Page state"): a compare of lanes and an eval suite,
 * each a store the dialogs read, each run through the one agent loop with its programs in the
 * page's workbench (mocks and approvals apply per call), without taking over the editor or the
 * chat. Stop ends the task and the sandbox run it is in (or an approval it waits on).
 */
import { Store } from "../state/store";
import { choosePromptForm, createToolCatalog } from "../codemode";
import { createToolWorld, modeInstructions } from "../model/tool-world";
import { runEvalCases } from "../evals/run-cases";
import type { EvalRun } from "../evals/report";
import { isYamlSuite, parseJsonSuite, planCases, withCase, type DESTRUCTIVE_POLICIES, type EvalCase, type EvalSuite, type SuiteParse } from "../evals/suite";
import type { MadeToolCall } from "../host-calls/record-calls";
import { runAgentLoop } from "../model/agent-loop";
import { classicCallsHandler } from "../model/classic";
import { runCompare, type LaneResult, type LaneRunner } from "../model/lanes";
import { parseModelRef, providerInfo } from "../model/providers";
import { handlersForMode, isClassicMode, TOOL_MODE_LABELS } from "../model/tool-handler";
import { modelChoice, requestExtras, type LaneChoice } from "./model-settings";
import type { Playground } from "./playground";
import { messageOf } from "../text/error-message";

/** Most lanes in one compare. */
export const MAX_LANES = 4;

/** What an eval run does with destructive calls. */
export type DestructivePolicy = (typeof DESTRUCTIVE_POLICIES)[number];

type Page = Pick<Playground, "servers" | "model" | "world" | "modelStep">;

/** One task at a time that Stop can end. */
class TaskRunner {
  #aborter: AbortController | undefined;
  constructor(
    private readonly page: Page,
    private readonly onRunning: (running: boolean) => void,
  ) {}

  get running(): boolean {
    return this.#aborter !== undefined;
  }

  /** Starts `work` with a fresh abort signal; false (and nothing started) while another is running. */
  start(work: (signal: AbortSignal) => Promise<unknown>): boolean {
    if (this.#aborter) return false;
    const aborter = new AbortController();
    this.#aborter = aborter;
    this.onRunning(true);
    void work(aborter.signal)
      .catch(() => undefined)
      .finally(() => {
        this.#aborter = undefined;
        this.onRunning(false);
      });
    return true;
  }

  stop(): void {
    if (!this.#aborter) return;
    this.#aborter.abort();
    this.page.world.stopRun();
  }
}

export interface CompareState {
  /** The lanes the person set; until then, code and classic with the chat's model. */
  custom: readonly LaneChoice[] | undefined;
  results: readonly LaneResult[];
  running: boolean;
}

export class CompareTask extends Store<CompareState> {
  readonly #task: TaskRunner;
  readonly #page: Page;

  constructor(page: Page) {
    super({ custom: undefined, results: [], running: false });
    this.#page = page;
    this.#task = new TaskRunner(page, (running) => this.set({ ...this.snapshot(), running }));
  }

  /** The lanes in effect. */
  lanes(): readonly LaneChoice[] {
    const { custom } = this.snapshot();
    if (custom) return custom;
    const { provider, modelId } = modelChoice(this.#page.model.snapshot(), this.#page.servers.view.snapshot().catalog);
    return [
      { toolMode: "code", provider, modelId },
      { toolMode: "classic", provider, modelId },
    ];
  }

  setLanes(lanes: readonly LaneChoice[]): void {
    this.set({ ...this.snapshot(), custom: lanes.slice(0, MAX_LANES) });
  }

  run(prompt: string): void {
    if (prompt.trim() === "") return;
    const page = this.#page;
    const world = page.world.world();
    const runners: LaneRunner[] = this.lanes().map((lane, i) => {
      let hostCalls = 0;
      const runCode = async (code: string) => {
        const result = await page.world.runQuiet(code, "compare");
        hostCalls += result.stats.hostCalls;
        return result;
      };
      return {
        spec: {
          id: String(i + 1),
          toolMode: lane.toolMode,
          model: `${lane.provider}:${lane.modelId}`,
          label: `${TOOL_MODE_LABELS[lane.toolMode]} · ${lane.provider === "demo" ? "demo model" : `${providerInfo(lane.provider).label} ${lane.modelId}`}`,
        },
        modelStep: page.modelStep(() => requestExtras(page.model.snapshot(), page.servers.view.snapshot().catalog, lane)),
        hostCalls: () => hostCalls,
        // A classic lane's rounds are the compare's runs too, counted with its host calls.
        handlers: handlersForMode(lane.toolMode, {
          runCode,
          searchTools: world.handlers.searchTools,
          searchClassicTools: world.handlers.searchClassicTools,
          callTools: classicCallsHandler(world.catalog.classicTools, runCode),
        }),
      };
    });
    const { maxSteps } = page.model.snapshot().settings;
    this.#task.start((signal) =>
      runCompare(prompt, runners, {
        policy: { maxSteps, returnDirectly: false },
        onChange: (results) => this.set({ ...this.snapshot(), results }),
        abortSignal: signal,
      }),
    );
  }

  stop(): void {
    this.#task.stop();
  }
}

export interface EvalsState {
  suite: EvalSuite | undefined;
  /** Why the last suite text was refused, one line per problem. */
  errors: readonly string[];
  runs: readonly EvalRun[];
  progress: { done: number; total: number } | undefined;
  running: boolean;
  /** The policy the person picked for destructive calls; the suite's until then. */
  chosen: DestructivePolicy | undefined;
}

/** What this page's eval runs do with destructive calls: the person's choice, else the suite's policy. */
export function destructivePolicy(state: EvalsState): DestructivePolicy {
  return state.chosen ?? state.suite?.destructive ?? "approve";
}

/**
 * Evals in the page: the suite's cases through the one agent loop, each run a fresh conversation
 * with the case's mode and model, its programs in the page's sandbox against the servers
 * connected here, its MCP calls recorded for the assertions. Cases name servers by their
 * registered names; only the case's servers are offered, in both modes, as the headless runner does.
 */
export class EvalsTask extends Store<EvalsState> {
  readonly #task: TaskRunner;
  readonly #page: Page;
  /** Counts loads: a YAML suite is read after its parser has loaded, and only the latest load applies. */
  #loads = 0;

  constructor(page: Page) {
    super({ suite: undefined, errors: [], runs: [], progress: undefined, running: false, chosen: undefined });
    this.#page = page;
    this.#task = new TaskRunner(page, (running) => this.#patch({ running }));
  }

  /**
   * Loads suite text: JSON at once; YAML once its parser has loaded, on the first YAML suite
   * (docs/speed.md, "The page's start"). Resolves when the suite, or its errors, are in the state.
   */
  load(text: string, fileName = ""): Promise<void> {
    const load = ++this.#loads;
    const apply = (parsed: SuiteParse) => {
      if (load !== this.#loads) return;
      if (parsed.ok) this.#patch({ suite: parsed.suite, chosen: undefined, errors: [], runs: [], progress: undefined });
      else this.#patch({ errors: parsed.errors });
    };
    if (!isYamlSuite(text, fileName)) {
      apply(parseJsonSuite(text));
      return Promise.resolve();
    }
    return import("../evals/suite-text").then(
      ({ parseSuite }) => apply(parseSuite(text, fileName)),
      (error: unknown) =>
        apply({
          ok: false,
          errors: [`The YAML reader did not load (${messageOf(error)}): reload the page, or paste the suite as JSON.`],
        }),
    );
  }

  /** Adds a case to the suite (starting one when there is none): a test call saved from the Tools tab. */
  addCase(added: EvalCase): void {
    this.#patch({ suite: withCase(this.snapshot().suite, added), errors: [] });
  }

  setDestructive(policy: DestructivePolicy): void {
    this.#patch({ chosen: policy });
  }

  run(): void {
    const { suite } = this.snapshot();
    if (!suite || this.#task.running) return;
    const page = this.#page;
    const destructive = destructivePolicy(this.snapshot());
    const cases = planCases(suite);
    this.#task.start((taskSignal) => {
      this.#patch({ runs: [], progress: { done: 0, total: cases.reduce((n, c) => n + c.modes.length * c.models.length * c.runs, 0) } });
      return runEvalCases(
        cases,
        async (planned, mode, modelRef, signal) => {
          const catalog = page.servers.view.snapshot().catalog;
          const connected = catalog.servers.map((s) => s.name);
          const missing = planned.servers.filter((name) => !connected.includes(name));
          if (missing.length > 0) throw new Error(`Not connected in this page: ${missing.join(", ")}. Connect the server, or run the suite with npm run eval.`);
          const ref = parseModelRef(modelRef);
          if (!ref.ok) throw new Error(ref.message);
          const calls: MadeToolCall[] = [];
          const values: unknown[] = [];
          let waitedMs = 0;
          const runCode = async (code: string) => {
            const result = await page.world.runRecorded(code, (call) => calls.push(call), { destructive, onWaited: (ms) => (waitedMs += ms), source: "eval" });
            if (result.ok) values.push(result.value);
            return result;
          };
          // The case's own tool world, as the headless runner opens one per case (lib/model/tool-world.ts).
          const world = createToolWorld(
            createToolCatalog(
              catalog.servers.filter((s) => planned.servers.includes(s.name)),
              { markApps: true },
            ),
            { runCode },
          );
          const form = choosePromptForm(world.catalog.declarations.text, suite.discovery, suite.declarationsBudgetTokens);
          const lane: LaneChoice = { toolMode: mode, provider: ref.provider, modelId: ref.modelId };
          const result = await runAgentLoop({
            messages: [{ id: `eval-${Date.now()}`, role: "user", parts: [{ type: "text", text: planned.prompt }] }],
            modelStep: page.modelStep(() => ({
              ...requestExtras(page.model.snapshot(), page.servers.view.snapshot().catalog, lane),
              ...(isClassicMode(mode)
                ? {
                    instructions: modeInstructions(mode, world.catalog, ""),
                    classicTools: world.catalog.classicTools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
                  }
                : { instructions: world.catalog.systemPrompt(form.mode), mode: form.mode, modeWhy: form.why }),
            })),
            handlers: handlersForMode(mode, world.handlers),
            policy: { maxSteps: planned.maxSteps, returnDirectly: false },
            ...(signal ? { abortSignal: signal } : {}),
          });
          return { result, calls, values, waitedMs };
        },
        {
          signal: taskSignal,
          onRun: (evalRun, done, total) => this.#patch({ runs: [...this.snapshot().runs, evalRun], progress: { done, total } }),
        },
      );
    });
  }

  stop(): void {
    this.#task.stop();
  }

  #patch(patch: Partial<EvalsState>): void {
    this.set({ ...this.snapshot(), ...patch });
  }
}
