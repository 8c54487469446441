/**
 * The part of running an eval suite that does not depend on where it runs: every case × model ×
 * mode × run in order, one execution each (injected: the Node runner's tool worlds, or the page's
 * sandbox and servers), its facts checked against the case's assertions, its figures and its
 * trace recorded. A failing execution fails that run with its error; the suite goes on.
 */
import type { AgentLoopResult } from "../model/agent-loop";
import { finalAnswer } from "../model/lanes";
import type { InspectorStep } from "../model/types";
import type { MadeToolCall } from "../host-calls/record-calls";
import type { TraceSpan } from "../timeline/otlp";
import { checkAll, type RunFacts } from "./assertions";
import type { EvalRun } from "./report";
import type { PlannedCase, ToolMode } from "./suite";
import { messageOf } from "../text/error-message";

/** What one execution of a case produced. */
export interface CaseExecution {
  result: AgentLoopResult;
  /** The MCP calls it made. */
  calls: readonly MadeToolCall[];
  /** Values of the programs that ran (code mode). */
  values: readonly unknown[];
  /** Time spent waiting for a person (approvals the suite's policy left to them): never counted in the run's wall time. */
  waitedMs?: number;
}

/** Runs a case once in a mode with a model. May throw (a server that is not configured, a model without a key). */
export type ExecuteCase = (planned: PlannedCase, mode: ToolMode, model: string, signal: AbortSignal | undefined) => Promise<CaseExecution>;

/** Token count of a text, for steps a provider reported no usage for. Default: a quarter of its length. */
export type CountTokens = (text: string) => number;

function tokensOf(steps: readonly InspectorStep[], model: string, count: CountTokens): { input: number; output: number; estimated: boolean } {
  let estimated = model.startsWith("demo:");
  let input = 0;
  let output = 0;
  for (const step of steps) {
    if (step.usage?.inputTokens === undefined || step.usage.outputTokens === undefined) estimated = true;
    input += step.usage?.inputTokens ?? count(JSON.stringify(step.request));
    output += step.usage?.outputTokens ?? count(JSON.stringify(step.response));
  }
  return { input, output, estimated };
}

function traceOf(
  planned: PlannedCase,
  mode: ToolMode,
  model: string,
  n: number,
  startedAt: number,
  passed: boolean,
  exec: CaseExecution,
  error: string | undefined,
): TraceSpan {
  return {
    name: `eval ${planned.name}`,
    startMs: startedAt,
    endMs: Date.now(),
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "cmp.eval.case": planned.name,
      "cmp.tool_mode": mode,
      "gen_ai.request.model": model,
      "cmp.eval.run": n,
      "cmp.eval.passed": passed,
    },
    ...(error === undefined ? {} : { error }),
    children: [
      ...exec.result.steps.map((step, i) => ({
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
      ...exec.calls.map((call) => ({
        name: `${call.server}.${call.tool}`,
        startMs: call.startedAt,
        endMs: call.endedAt,
        attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": call.tool, "mcp.server.name": call.server },
        ...(call.error === undefined ? {} : { error: call.error }),
      })),
    ],
  };
}

/** The record of one execution: facts, verdict, figures, trace. */
export function evalRunOf(
  planned: PlannedCase,
  mode: ToolMode,
  model: string,
  n: number,
  startedAt: number,
  wallMs: number,
  exec: CaseExecution,
  count: CountTokens,
): EvalRun {
  const { result } = exec;
  const tokens = tokensOf(result.steps, model, count);
  const error =
    result.stop.kind === "done" || result.stop.kind === "returned-directly" ? undefined : result.stop.kind === "error" ? result.stop.message : result.stop.kind;
  const answer = finalAnswer(result.messages);
  const facts: RunFacts = { mode, answer, calls: exec.calls, values: exec.values, requests: result.steps.length, inputTokens: tokens.input, error };
  const verdict = checkAll(planned.assert, facts);
  return {
    case: planned.name,
    ...(planned.kind ? { kind: planned.kind } : {}),
    mode,
    model,
    run: n,
    passed: verdict.passed,
    results: verdict.results,
    requests: facts.requests,
    inputTokens: tokens.input,
    outputTokens: tokens.output,
    estimatedTokens: tokens.estimated,
    toolCalls: exec.calls.length,
    wallMs,
    answer,
    stop: result.stop.kind,
    ...(error === undefined ? {} : { error }),
    trace: traceOf(planned, mode, model, n, startedAt, verdict.passed, exec, error),
    messages: result.messages,
  };
}

/** Runs every planned case in order and returns one record per run (partial when the signal aborts). */
export async function runEvalCases(
  cases: readonly PlannedCase[],
  execute: ExecuteCase,
  options: { onRun?: (run: EvalRun, done: number, total: number) => void; signal?: AbortSignal; countTokens?: CountTokens } = {},
): Promise<EvalRun[]> {
  const count = options.countTokens ?? ((text: string) => Math.ceil(text.length / 4));
  const total = cases.reduce((sum, c) => sum + c.modes.length * c.models.length * c.runs, 0);
  const runs: EvalRun[] = [];
  for (const planned of cases) {
    for (const model of planned.models) {
      for (const mode of planned.modes) {
        for (let n = 1; n <= planned.runs; n++) {
          if (options.signal?.aborted) return runs;
          const startedAt = Date.now();
          const started = performance.now();
          let run: EvalRun;
          try {
            const exec = await execute(planned, mode, model, options.signal);
            run = evalRunOf(planned, mode, model, n, startedAt, performance.now() - started - (exec.waitedMs ?? 0), exec, count);
          } catch (error) {
            const message = messageOf(error);
            run = {
              case: planned.name,
              ...(planned.kind ? { kind: planned.kind } : {}),
              mode,
              model,
              run: n,
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
          runs.push(run);
          options.onRun?.(run, runs.length, total);
        }
      }
    }
  }
  return runs;
}
