"use client";

import type { RunSource } from "@/lib/timeline/history";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ClassicTool } from "@/lib/codemode";
import { recordCalls, type MadeToolCall } from "@/lib/mcp/record-calls";
import type { CodeApprovalDecision } from "@/lib/model/tool-handler";
import type { RunResult } from "@/lib/sandbox/types";
import type { UseSandboxRunResult } from "./use-sandbox-run";
import type { UseEditorCodeResult } from "./use-editor-code";
import type { ToolCatalog } from "@/lib/codemode";
import { createToolWorld, type ToolWorld } from "@/lib/model/tool-world";
import type { UseMcpResult } from "./use-mcp";
import type { PrepareOptions, UseTimelineDebuggerResult } from "./use-timeline-debugger";
import type { LimitOverrides } from "@/lib/editor/limits-store";

/** One execute_code call of the model, kept so the person can bring its code back into the editor. */
export interface ChatCodeEntry {
  toolCallId: string;
  code: string;
  at: number;
}

/** Model code waiting in the editor for the person (step mode). */
export interface PendingCodeApproval {
  toolCallId: string;
  code: string;
}

export interface UseChatBridgeResult {
  /** The chat's tool handlers: the model's code runs in the page's sandbox, search uses the page's catalog, approvals wait in the editor. */
  handlers: ToolWorld["handlers"];
  /** Every connected tool as a classic tool (classic mode offers these; handlers.callTools answers them). */
  classicTools: readonly ClassicTool[];
  /** Runs a program through the page's sandbox and host functions without taking over the editor (classic rounds, compare lanes). */
  runQuiet: (code: string, source?: RunSource) => Promise<RunResult>;
  /** The same, telling `sink` about every MCP call the program makes (evals); `options` decide its destructive calls. */
  runRecorded: (code: string, sink: (call: MadeToolCall) => void, options?: PrepareOptions) => Promise<RunResult>;
  /** Cancels the chat's sandbox run and settles a waiting approval as skipped (the session's Stop). */
  stopRun: () => void;
  /** A connected server has destructive tools: step mode defaults to on. */
  hasDestructiveTools: boolean;
  /** Names of the connected servers, to mark example prompts whose server is missing. */
  connectedServers: readonly string[];
  /** Step mode: the model's code waits in the editor until the person runs (maybe edited) or skips it. */
  pending: PendingCodeApproval | undefined;
  approve: (options?: { askEachDestructive?: boolean }) => void;
  /** Replaces the code history (a restored session, or a cleared one). */
  restoreHistory: (entries: readonly ChatCodeEntry[]) => void;
  /** Puts code into the editor as a history entry (what the editor held before is kept in the history too). */
  putCode: (code: string, label: string) => void;
  skip: () => void;
  history: readonly ChatCodeEntry[];
}

const MAX_HISTORY = 50;

export interface ChatBridgeDeps {
  sandbox: UseSandboxRunResult;
  editor: UseEditorCodeResult;
  catalog: ToolCatalog;
  mcp: UseMcpResult;
  debug: UseTimelineDebuggerResult;
  /** The person's run limits: the model's code runs under the same ones as theirs. */
  limits: LimitOverrides;
}

/**
 * Connects the chat to the editor, the sandbox and the timeline: the model's code appears in
 * Monaco (and in a history), runs through the same host functions as a person's run (so it is
 * recorded, mocked, replayed and gated the same way), and in step mode waits for Run or Skip.
 */
export function useChatBridge({ sandbox, editor, catalog, mcp, debug, limits }: ChatBridgeDeps): UseChatBridgeResult {
  const [history, setHistory] = useState<ChatCodeEntry[]>([]);
  const [pending, setPending] = useState<PendingCodeApproval | undefined>(undefined);
  const pendingRef = useRef<PendingCodeApproval | undefined>(undefined);
  useEffect(() => {
    pendingRef.current = pending;
  }, [pending]);
  const resolveRef = useRef<((decision: CodeApprovalDecision) => void) | null>(null);
  // Approve sends whatever the editor holds at that moment (the person may have edited the code).
  const codeRef = useRef(editor.code);
  useEffect(() => {
    codeRef.current = editor.code;
  }, [editor.code]);

  const { run, stop } = sandbox;
  const { setCode } = editor;
  const { prepareHost, observer } = debug;

  const remember = useCallback((toolCallId: string, code: string) => {
    setHistory((list) => {
      // What the editor held before is kept too (once), so new code never silently replaces the person's.
      const before = codeRef.current;
      const keep = before.trim() !== "" && before !== code && !list.some((e) => e.code === before);
      const kept = keep ? [{ toolCallId: `before-${toolCallId}`, code: before, at: Date.now() - 1 }, ...list] : list;
      return [{ toolCallId, code, at: Date.now() }, ...kept.filter((e) => e.toolCallId !== toolCallId)].slice(0, MAX_HISTORY);
    });
  }, []);

  // The program the person just approved in step mode, when that approval covers its destructive calls.
  const preApproved = useRef<string | undefined>(undefined);
  const runCode = useCallback(
    (code: string, toolCallId: string) => {
      setCode(code);
      remember(toolCallId, code);
      const approved = preApproved.current === toolCallId;
      preApproved.current = undefined;
      return run(code, (report) => prepareHost(report, { preApproved: approved, source: "chat" }), observer, limits);
    },
    [setCode, remember, run, prepareHost, observer, limits],
  );

  const runQuiet = useCallback(
    (code: string, source: RunSource = "chat") => run(code, (report) => prepareHost(report, { source }), observer, limits),
    [run, prepareHost, observer, limits],
  );
  const runRecorded = useCallback(
    (code: string, sink: (call: MadeToolCall) => void, options?: PrepareOptions) =>
      run(code, (report) => recordCalls(prepareHost(report, options), debug.namespaces, sink), observer, limits),
    [run, prepareHost, observer, limits, debug.namespaces],
  );

  const settle = useCallback((decision: CodeApprovalDecision) => {
    const resolve = resolveRef.current;
    resolveRef.current = null;
    setPending(undefined);
    resolve?.(decision);
  }, []);

  const awaitApproval = useCallback(
    (code: string, toolCallId: string) => {
      // A newer request replaces an older one: the older is answered as skipped, never left hanging.
      resolveRef.current?.({ action: "skip", message: "Replaced by a newer call before the person decided." });
      setCode(code);
      remember(toolCallId, code);
      setPending({ toolCallId, code });
      return new Promise<CodeApprovalDecision>((resolve) => {
        resolveRef.current = resolve;
      });
    },
    [setCode, remember],
  );

  const approve = useCallback(
    (options: { askEachDestructive?: boolean } = {}) => {
      preApproved.current = options.askEachDestructive ? undefined : pendingRef.current?.toolCallId;
      settle({ action: "run", code: codeRef.current });
    },
    [settle],
  );
  const restoreHistory = useCallback((entries: readonly ChatCodeEntry[]) => setHistory(entries.slice(0, MAX_HISTORY)), []);
  const putCode = useCallback(
    (code: string, label: string) => {
      remember(`${label}-${Date.now()}`, code);
      setCode(code);
    },
    [remember, setCode],
  );
  const skip = useCallback(() => settle({ action: "skip", message: "The person chose not to run this code." }), [settle]);
  const stopRun = useCallback(() => {
    stop();
    settle({ action: "skip", message: "Stopped by the person." });
  }, [stop, settle]);

  // Only an explicit destructiveHint counts (the same rule as the approval gate): treating every
  // unannotated tool as destructive would turn step mode on for almost any server.
  const hasDestructiveTools = useMemo(() => mcp.connected.some((s) => s.tools.some((t) => t.annotations?.destructiveHint === true)), [mcp.connected]);
  const connectedServers = useMemo(() => mcp.connected.map((s) => s.config.name), [mcp.connected]);
  // The page's tool world (lib/model/tool-world.ts): classic rounds run through the same sandbox and host functions, without taking over the editor.
  const handlers = useMemo(
    // The handlers read refs only when the loop calls them, never while rendering.
    // eslint-disable-next-line react-hooks/refs
    () => createToolWorld(catalog, { runCode, runClassic: (code) => runQuiet(code, "chat"), awaitApproval }).handlers,
    [catalog, runCode, runQuiet, awaitApproval],
  );
  return {
    handlers,
    classicTools: catalog.classicTools,
    runQuiet,
    runRecorded,
    stopRun,
    hasDestructiveTools,
    connectedServers,
    pending,
    approve,
    putCode,
    restoreHistory,
    skip,
    history,
  };
}
