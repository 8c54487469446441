"use client";

import { handlersForMode } from "@/lib/model/tool-handler";
import { useCallback, useState } from "react";
import { usePageTask } from "./use-page-task";
import type { UseChatBridgeResult } from "./use-chat-bridge";
import type { UseChatModelResult } from "./use-chat-model";
import { buildSystemPrompt, generateDeclarations, type ServerTools } from "@/lib/codemode";
import { runEvalCases } from "@/lib/evals/run-cases";
import type { EvalRun } from "@/lib/evals/report";
import { parseSuite, planCases, withCase, type DESTRUCTIVE_POLICIES, type EvalCase, type EvalSuite } from "@/lib/evals/suite";

/** What an eval run does with destructive calls. */
export type DestructivePolicy = (typeof DESTRUCTIVE_POLICIES)[number];
import type { MadeToolCall } from "@/lib/mcp/record-calls";
import { runAgentLoop } from "@/lib/model/agent-loop";
import { classicCallsHandler } from "@/lib/model/classic";
import { httpModelStep } from "@/lib/model/browser/http-model-step";
import { parseModelRef } from "@/lib/model/providers";

export interface UseEvalsResult {
  suite: EvalSuite | undefined;
  /** Why the last suite text was refused, one line per problem. */
  errors: readonly string[];
  load: (text: string, fileName?: string) => void;
  /** Adds a case to the suite (starting one when there is none): a test call saved from the Tools tab. */
  addCase: (added: EvalCase) => void;
  runs: readonly EvalRun[];
  progress: { done: number; total: number } | undefined;
  running: boolean;
  /** What this page's runs do with destructive calls: the suite's policy until the person picks another. */
  destructive: DestructivePolicy;
  setDestructive: (policy: DestructivePolicy) => void;
  run: () => void;
  stop: () => void;
}

/**
 * Evals in the page: the suite's cases through the one agent loop, each run a fresh
 * conversation over POST /api/chat with the case's mode and model, its programs in this page's
 * sandbox against the servers connected here (mocks and approvals apply), its MCP calls
 * recorded for the assertions. Cases name servers by their registered names.
 */
export function useEvals(
  model: UseChatModelResult,
  bridge: Pick<UseChatBridgeResult, "runRecorded" | "classicTools" | "handlers" | "stopRun" | "connectedServers">,
  serverTools: readonly ServerTools[],
): UseEvalsResult {
  const [suite, setSuite] = useState<EvalSuite | undefined>(undefined);
  const [errors, setErrors] = useState<readonly string[]>([]);
  const [runs, setRuns] = useState<readonly EvalRun[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | undefined>(undefined);
  const [chosen, setDestructive] = useState<DestructivePolicy | undefined>(undefined);
  const destructive = chosen ?? suite?.destructive ?? "approve";
  const task = usePageTask(bridge.stopRun);

  const load = useCallback((text: string, fileName = "") => {
    const parsed = parseSuite(text, fileName);
    if (parsed.ok) {
      setSuite(parsed.suite);
      setDestructive(undefined);
      setErrors([]);
      setRuns([]);
      setProgress(undefined);
    } else setErrors(parsed.errors);
  }, []);

  const addCase = useCallback((added: EvalCase) => {
    setSuite((current) => withCase(current, added));
    setErrors([]);
  }, []);

  const run = useCallback(() => {
    if (!suite || task.running) return;
    const cases = planCases(suite);
    task.start((taskSignal) => {
      setRuns([]);
      setProgress({ done: 0, total: cases.reduce((n, c) => n + c.modes.length * c.models.length * c.runs, 0) });
      return runEvalCases(
        cases,
        async (planned, mode, modelRef, signal) => {
          const missing = planned.servers.filter((name) => !bridge.connectedServers.includes(name));
          if (missing.length > 0) throw new Error(`Not connected in this page: ${missing.join(", ")}. Connect the server, or run the suite with npm run eval.`);
          const ref = parseModelRef(modelRef);
          if (!ref.ok) throw new Error(ref.message);
          const { provider } = ref;
          const calls: MadeToolCall[] = [];
          const values: unknown[] = [];
          let waitedMs = 0;
          const runCode = async (code: string) => {
            const result = await bridge.runRecorded(code, (call) => calls.push(call), {
              destructive,
              onWaited: (ms) => (waitedMs += ms),
              source: "eval",
            });
            if (result.ok) values.push(result.value);
            return result;
          };
          // Only the case's servers are offered, in both modes, as the headless runner does.
          const tools = bridge.classicTools.filter((t) => planned.servers.includes(t.server));
          const declarations = generateDeclarations(serverTools.filter((s) => planned.servers.includes(s.name)));
          const lane = { toolMode: mode, provider, modelId: ref.modelId };
          const result = await runAgentLoop({
            messages: [{ id: `eval-${Date.now()}`, role: "user", parts: [{ type: "text", text: planned.prompt }] }],
            modelStep: httpModelStep({
              body: () => ({
                ...model.requestExtrasFor(lane),
                ...(mode === "classic"
                  ? { classicTools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) }
                  : { instructions: buildSystemPrompt(declarations) }),
              }),
            }),
            handlers: handlersForMode(mode, { runCode, searchTools: bridge.handlers.searchTools, callTools: classicCallsHandler(tools, runCode) }),
            policy: { maxSteps: planned.maxSteps, returnDirectly: false },
            ...(signal ? { abortSignal: signal } : {}),
          });
          return { result, calls, values, waitedMs };
        },
        {
          signal: taskSignal,
          onRun: (evalRun, done, total) => {
            setRuns((current) => [...current, evalRun]);
            setProgress({ done, total });
          },
        },
      );
    });
  }, [suite, model, bridge, serverTools, task, destructive]);

  return { suite, errors, load, runs, progress, running: task.running, destructive, setDestructive, run, stop: task.stop, addCase };
}
