/**
 * Compare: one prompt run in several lanes (code mode and classic mode, optionally with other
 * models), each its own conversation through the one agent loop, sharing no state. A lane's
 * figures come from what its loop recorded: model requests, provider-reported tokens (or the
 * estimate, marked), wall time, tool calls, errors and the final answer. Pure except for the
 * clock; the model step and the tool handlers are injected per lane.
 */
import { runAgentLoop, type ModelStep } from "./agent-loop";
import { lastStepParts, type LoopPolicy } from "./loop-policy";
import type { ToolHandlers, ToolMode } from "./tool-handler";
import type { CodeModeUIMessage, InspectorStep } from "./types";

/** What a lane runs. */
export interface LaneSpec {
  id: string;
  toolMode: ToolMode;
  /** e.g. "openai · gpt-5" */
  label: string;
  /** `provider:modelId`: lanes are compared mode against mode only when they share it. */
  model?: string;
}

/** How a lane's run went, for telling what kind of task the prompt was (lib/evals/report.ts, compareVerdict). */
export interface LaneShape {
  /** Tool calls per model step that made any (search_tools left out). */
  rounds: number[];
  /** Characters of the largest tool output that reached the model. */
  largestResultChars: number;
}

/** A lane's figures, live while it runs and final when it ends. */
export interface LaneResult {
  spec: LaneSpec;
  status: "waiting" | "running" | "done" | "error" | "stopped";
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** Some step reported no usage: the token figures are incomplete estimates. */
  estimatedTokens: boolean;
  wallMs: number;
  /** MCP tool calls made (inside programs in code mode, one per call in classic mode). */
  toolCalls: number;
  /** Failed programs or tool calls, and a failed step. */
  errors: number;
  answer: string;
  error?: string;
  /** The form the lane's first request gave the tools in (code mode, and classic with tool search), and why. */
  form?: InspectorStep["request"]["form"];
  shape?: LaneShape;
}

/** The metrics a compare shows, with how to read them. */
export const COMPARE_METRICS = [
  { key: "requests", label: "Model requests" },
  { key: "inputTokens", label: "Input tokens" },
  { key: "outputTokens", label: "Output tokens" },
  { key: "wallMs", label: "Wall time (ms)" },
  { key: "toolCalls", label: "Tool calls" },
  { key: "errors", label: "Errors" },
] as const satisfies ReadonlyArray<{ key: keyof LaneResult; label: string }>;

export type CompareMetric = (typeof COMPARE_METRICS)[number]["key"];

/** A lane before it starts. */
export function waitingLane(spec: LaneSpec): LaneResult {
  return { spec, status: "waiting", requests: 0, inputTokens: 0, outputTokens: 0, estimatedTokens: false, wallMs: 0, toolCalls: 0, errors: 0, answer: "" };
}

/** Counts tool calls and errors in a conversation's tool parts (programs report their host calls). */
export function toolFigures(messages: readonly CodeModeUIMessage[]): { toolCalls: number; errors: number } {
  let toolCalls = 0;
  let errors = 0;
  for (const message of messages) {
    for (const part of message.parts) {
      if (!part.type.startsWith("tool-") || !("state" in part)) continue;
      const output = (part as { output?: unknown }).output as { ok?: boolean; stats?: { hostCalls?: number }; error?: unknown } | undefined;
      if (part.type === "tool-execute_code") {
        if (part.state === "output-error" || (part.state === "output-available" && output?.ok === false)) errors++;
      } else if (part.type !== "tool-search_tools") {
        toolCalls++;
        if (part.state === "output-error") errors++;
      }
    }
  }
  return { toolCalls, errors };
}

function usage(steps: readonly InspectorStep[]): Pick<LaneResult, "inputTokens" | "outputTokens" | "estimatedTokens"> {
  return {
    inputTokens: steps.reduce((n, s) => n + (s.usage?.inputTokens ?? 0), 0),
    outputTokens: steps.reduce((n, s) => n + (s.usage?.outputTokens ?? 0), 0),
    estimatedTokens: steps.some((s) => s.usage?.inputTokens === undefined || s.provider === "demo"),
  };
}

/** Tool calls per step and the largest tool output, over the assistant messages of a conversation. */
export function laneShape(messages: readonly CodeModeUIMessage[]): LaneShape {
  const rounds: number[] = [];
  let largestResultChars = 0;
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    let calls = 0;
    const close = () => {
      if (calls > 0) rounds.push(calls);
      calls = 0;
    };
    for (const part of message.parts) {
      if (part.type === "step-start") close();
      if (!part.type.startsWith("tool-") || !("state" in part)) continue;
      if (part.type !== "tool-search_tools") calls++;
      if (part.state === "output-available")
        largestResultChars = Math.max(largestResultChars, JSON.stringify((part as { output?: unknown }).output ?? null).length);
    }
    close();
  }
  return { rounds, largestResultChars };
}

/** The final answer: the text of the last step of the last assistant message. */
export function finalAnswer(messages: readonly CodeModeUIMessage[]): string {
  const last = messages.at(-1);
  return last?.role === "assistant"
    ? lastStepParts(last)
        .flatMap((p) => (p.type === "text" ? [p.text] : []))
        .join("\n")
    : "";
}

/** One lane's collaborators. `hostCalls` reads how many MCP calls the lane's programs have made so far. */
export interface LaneRunner {
  spec: LaneSpec;
  modelStep: ModelStep;
  handlers: ToolHandlers;
  hostCalls?: () => number;
}

/**
 * Runs the lanes one after another (the page has one sandbox; sequential lanes also keep their
 * wall times from disturbing each other) and reports every change. A stopped compare keeps the
 * finished lanes and marks the rest.
 */
export async function runCompare(
  prompt: string,
  lanes: readonly LaneRunner[],
  options: { policy: LoopPolicy; onChange: (results: LaneResult[]) => void; abortSignal?: AbortSignal },
): Promise<LaneResult[]> {
  const results = lanes.map((lane) => waitingLane(lane.spec));
  const publish = () => options.onChange(results.map((r) => ({ ...r })));
  publish();
  for (const [i, lane] of lanes.entries()) {
    if (options.abortSignal?.aborted) {
      results[i] = { ...results[i]!, status: "stopped" };
      continue;
    }
    const started = performance.now();
    const hostBefore = lane.hostCalls?.() ?? 0;
    const steps: InspectorStep[] = [];
    results[i] = { ...results[i]!, status: "running" };
    publish();
    const result = await runAgentLoop({
      messages: [{ id: `compare-${lane.spec.id}`, role: "user", parts: [{ type: "text", text: prompt }] }],
      modelStep: lane.modelStep,
      handlers: lane.handlers,
      policy: options.policy,
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      onInspector: (step) => {
        steps.push(step);
        results[i] = { ...results[i]!, requests: steps.length, ...usage(steps), wallMs: performance.now() - started };
        publish();
      },
    });
    const figures = toolFigures(result.messages);
    const hostCalls = lane.hostCalls ? lane.hostCalls() - hostBefore : 0;
    results[i] = {
      ...results[i],
      ...usage(result.steps),
      status: result.stop.kind === "error" ? "error" : result.stop.kind === "stopped" ? "stopped" : "done",
      requests: result.steps.length,
      wallMs: performance.now() - started,
      toolCalls: lane.spec.toolMode === "code" ? hostCalls : figures.toolCalls,
      errors: figures.errors + (result.stop.kind === "error" ? 1 : 0),
      answer: finalAnswer(result.messages),
      ...(result.stop.kind === "error" ? { error: result.stop.message } : {}),
      ...(result.steps[0]?.request.form ? { form: result.steps[0].request.form } : {}),
      shape: laneShape(result.messages),
    };
    publish();
  }
  return results;
}

/** Each lane's value of a metric divided by the first lane's (the baseline); undefined when the baseline is 0. */
export function ratiosTo(results: readonly LaneResult[], metric: CompareMetric): Array<number | undefined> {
  const base = results[0]?.[metric] ?? 0;
  return results.map((r) => (base === 0 ? undefined : r[metric] / base));
}
