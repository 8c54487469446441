"use client";

import { useCallback, useRef, useState } from "react";
import type { ConnectionManager } from "@/lib/mcp/connection-manager";
import { validateArguments } from "@/lib/mcp/validate";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";

export type TestCallState =
  | { status: "idle" }
  | { status: "calling"; startedAt: number }
  | { status: "done"; result: CallToolResult; ms: number; warning?: string }
  | { status: "failed"; message: string; ms?: number };

export interface UseTestCallResult {
  state: TestCallState;
  call: (args: Record<string, unknown>) => void;
  cancel: () => void;
}

/** Calls one tool directly (outside the sandbox) and keeps the raw result and its time. */
export function useTestCall(manager: ConnectionManager | undefined, serverId: string, tool: Tool): UseTestCallResult {
  const [state, setState] = useState<TestCallState>({ status: "idle" });
  const abortRef = useRef<AbortController | null>(null);

  const call = useCallback(
    (args: Record<string, unknown>) => {
      const connection = manager?.connection(serverId);
      if (!connection) return setState({ status: "failed", message: "The server is not connected." });
      // The check is advisory here: a person may send invalid arguments on purpose to see how the server answers.
      const check = validateArguments(tool.inputSchema, args);
      const warning = check.ok ? undefined : `Sent although it does not match the input schema: ${check.message}`;
      abortRef.current?.abort();
      const abort = new AbortController();
      abortRef.current = abort;
      const started = performance.now();
      setState({ status: "calling", startedAt: Date.now() });
      connection
        .callTool(tool.name, args, { signal: abort.signal })
        .then((result) => {
          if (abortRef.current === abort) setState({ status: "done", result, ms: performance.now() - started, ...(warning ? { warning } : {}) });
        })
        .catch((error: unknown) => {
          if (abortRef.current === abort)
            setState({ status: "failed", message: error instanceof Error ? error.message : String(error), ms: performance.now() - started });
        });
    },
    [manager, serverId, tool],
  );

  const cancel = useCallback(() => {
    abortRef.current?.abort(new Error("Cancelled by you"));
  }, []);

  return { state, call, cancel };
}
