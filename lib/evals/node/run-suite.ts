/**
 * Runs an eval suite headless, in Node: each case × mode × model × run goes through the one
 * agent loop (runHeadlessAgent) against a tool world of the case's servers (the built-in demo
 * servers served on loopback, or HTTP servers of the suite's mcp.json), with the provider called
 * directly. Runs are independent (a fresh conversation each); a failing model or server fails
 * that run with its error and the suite goes on. See docs/ARCHITECTURE.md, "Evals".
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { countTokens } from "../../codemode/tokens";
import { importMcpServersConfig } from "../../mcp/config";
import { DEMO_SERVER_NAMES, demoServerPath } from "../../mcp/demo/catalog";
import { startDemoHost } from "../../mcp/node/demo-host";
import type { ServerConfig } from "../../mcp/types";
import { openToolWorld, runHeadlessAgent, type ToolWorld } from "../../model/node/headless-agent";
import { PROVIDER_IDS, providerInfo, type ProviderId } from "../../model/providers";
import { resolveModel, type Env } from "../../model/server/provider-registry";
import { finalAnswer } from "../../model/compare";
import type { InspectorStep, ResolvedModel } from "../../model/types";
import { checkAll, type RunFacts } from "../assertions";
import type { TraceSpan } from "../../timeline/otlp";
import type { EvalRun } from "../report";
import type { EvalSuite, PlannedCase } from "../suite";

/** How to run a suite. */
export interface RunSuiteOptions {
  /** The suite file's folder (its mcpConfig path is relative to it). */
  suiteDir: string;
  cases: readonly PlannedCase[];
  env: Env;
  /** Base URL for openai-compatible models. */
  baseURL?: string;
  /** Told after every run (progress). */
  onRun?: (run: EvalRun, done: number, total: number) => void;
  signal?: AbortSignal;
  /** Model options (tests: the demo model without streaming delays). */
  demo?: { chunkDelayMs?: number };
}

function demoServer(name: (typeof DEMO_SERVER_NAMES)[number]): ServerConfig {
  return { id: name, name, transport: "streamable-http", url: demoServerPath(name), headers: {}, enabled: true };
}

/** Token figures of a run: the provider's, or the o200k estimate of what was sent and received when it reported none. */
function tokensOf(steps: readonly InspectorStep[], model: string): { input: number; output: number; estimated: boolean } {
  let estimated = model.startsWith("demo:");
  let input = 0;
  let output = 0;
  for (const step of steps) {
    if (step.usage?.inputTokens === undefined || step.usage.outputTokens === undefined) estimated = true;
    input += step.usage?.inputTokens ?? countTokens(JSON.stringify(step.request));
    output += step.usage?.outputTokens ?? countTokens(JSON.stringify(step.response));
  }
  return { input, output, estimated };
}

function resolve(ref: string, options: RunSuiteOptions): ResolvedModel {
  const colon = ref.indexOf(":");
  const provider = ref.slice(0, colon);
  if (!(PROVIDER_IDS as readonly string[]).includes(provider)) throw new Error(`Unknown provider "${provider}" (use one of ${PROVIDER_IDS.join(", ")}).`);
  const id = provider as ProviderId;
  return resolveModel(
    { provider: id, modelId: ref.slice(colon + 1) || providerInfo(id).defaultModel, ...(options.baseURL ? { baseURL: options.baseURL } : {}) },
    { env: options.env, baseUrlPolicy: { allowPrivate: true }, ...(options.demo ? { demo: options.demo } : {}) },
  );
}

/** Runs every planned case and returns one record per run. */
export async function runSuite(suite: EvalSuite, options: RunSuiteOptions): Promise<EvalRun[]> {
  const configured = new Map<string, ServerConfig>();
  if (suite.mcpConfig) {
    const imported = importMcpServersConfig(readFileSync(path.resolve(options.suiteDir, suite.mcpConfig), "utf8"));
    if (!imported.ok) throw new Error(`${suite.mcpConfig}: ${imported.errors.join("; ")}`);
    for (const server of imported.servers) configured.set(server.name, { ...server, enabled: true });
  }
  const usesDemo = options.cases.some((c) => c.servers.some((s) => !configured.has(s) && (DEMO_SERVER_NAMES as readonly string[]).includes(s)));
  const host = usesDemo ? await startDemoHost() : undefined;
  const worlds = new Map<string, Promise<ToolWorld>>();
  const worldFor = (servers: readonly string[]): Promise<ToolWorld> => {
    const key = JSON.stringify([...servers].sort());
    let world = worlds.get(key);
    if (!world) {
      const configs = servers.map((name) => {
        const config =
          configured.get(name) ??
          ((DEMO_SERVER_NAMES as readonly string[]).includes(name) ? demoServer(name as (typeof DEMO_SERVER_NAMES)[number]) : undefined);
        if (!config)
          throw new Error(
            `The server "${name}" is not configured: use a built-in demo server (${DEMO_SERVER_NAMES.join(", ")}) or add it to the suite's mcpConfig.`,
          );
        return config;
      });
      world = openToolWorld(configs, { baseUrl: host?.url ?? "http://127.0.0.1" });
      worlds.set(key, world);
    }
    return world;
  };

  const total = options.cases.reduce((n, c) => n + c.modes.length * c.models.length * c.runs, 0);
  const runs: EvalRun[] = [];
  try {
    for (const planned of options.cases) {
      for (const model of planned.models) {
        for (const mode of planned.modes) {
          for (let n = 1; n <= planned.runs; n++) {
            if (options.signal?.aborted) return runs;
            const run = await runOne(planned, mode, model, n, worldFor, options);
            runs.push(run);
            options.onRun?.(run, runs.length, total);
          }
        }
      }
    }
    return runs;
  } finally {
    await Promise.all([...worlds.values()].map((w) => w.then((world) => world.close()).catch(() => undefined)));
    await host?.close();
  }
}

async function runOne(
  planned: PlannedCase,
  mode: "code" | "classic",
  model: string,
  n: number,
  worldFor: (servers: readonly string[]) => Promise<ToolWorld>,
  options: RunSuiteOptions,
): Promise<EvalRun> {
  const base = { case: planned.name, mode, model, run: n };
  const started = performance.now();
  const startedAt = Date.now();
  try {
    const world = await worldFor(planned.servers);
    const resolved = resolve(model, options);
    const callsBefore = world.calls.length;
    const runsBefore = world.runs.length;
    const result = await runHeadlessAgent({
      world,
      model: resolved,
      prompt: planned.prompt,
      toolMode: mode,
      policy: { maxSteps: planned.maxSteps },
      ...(options.signal ? { abortSignal: options.signal } : {}),
    });
    const wallMs = performance.now() - started;
    const answer = finalAnswer(result.messages);
    const tokens = tokensOf(result.steps, model);
    const error =
      result.stop.kind === "done" || result.stop.kind === "returned-directly"
        ? undefined
        : result.stop.kind === "error"
          ? result.stop.message
          : result.stop.kind;
    const calls = world.calls.slice(callsBefore);
    const facts: RunFacts = {
      mode,
      answer,
      calls,
      values: world.runs.slice(runsBefore).flatMap((r) => (r.result.ok ? [r.result.value] : [])),
      requests: result.steps.length,
      inputTokens: tokens.input,
      error,
    };
    const verdict = checkAll(planned.assert, facts);
    const trace: TraceSpan = {
      name: `eval ${planned.name}`,
      startMs: startedAt,
      endMs: Date.now(),
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "cmp.eval.case": planned.name,
        "cmp.tool_mode": mode,
        "gen_ai.request.model": model,
        "cmp.eval.run": n,
        "cmp.eval.passed": verdict.passed,
      },
      ...(error === undefined ? {} : { error }),
      children: [
        ...result.steps.map((step, i) => ({
          name: `chat ${step.modelId}`,
          startMs: step.startedAt,
          endMs: step.startedAt + step.latencyMs,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": step.provider,
            "gen_ai.request.model": step.modelId,
            "gen_ai.usage.input_tokens": step.usage?.inputTokens,
            "gen_ai.usage.output_tokens": step.usage?.outputTokens,
            "gen_ai.response.finish_reasons": step.response.finishReason,
            "cmp.step": i + 1,
          },
          ...(step.response.error ? { error: step.response.error } : {}),
        })),
        ...calls.map((call) => ({
          name: `${call.server}.${call.tool}`,
          startMs: call.startedAt,
          endMs: call.endedAt,
          attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": call.tool, "mcp.server.name": call.server },
          ...(call.error === undefined ? {} : { error: call.error }),
        })),
      ],
    };
    return {
      ...base,
      passed: verdict.passed,
      results: verdict.results,
      requests: facts.requests,
      inputTokens: tokens.input,
      outputTokens: tokens.output,
      estimatedTokens: tokens.estimated,
      toolCalls: calls.length,
      wallMs,
      answer,
      stop: result.stop.kind,
      ...(error === undefined ? {} : { error }),
      trace,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      passed: false,
      results: [],
      requests: 0,
      inputTokens: 0,
      outputTokens: 0,
      estimatedTokens: false,
      toolCalls: 0,
      wallMs: performance.now() - started,
      answer: "",
      stop: "error",
      error: message,
    };
  }
}
