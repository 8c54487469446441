"use client";

import { useStore } from "@/components/hooks/use-store";
import { useCallback } from "react";
import { testCallKey, type TestCallEntry, type TestCallState, type TestCallStore } from "@/lib/mcp/test-calls";
import type { Tool } from "@modelcontextprotocol/client";

export type { TestCallState };

export interface UseTestCallResult {
  state: TestCallState;
  /** The arguments the last call was sent, to fill the form again. */
  lastArgs: TestCallEntry["args"];
  /** The server ran the call as a task: where it stands, as last reported. */
  task: TestCallEntry["task"];
  call: (args: Record<string, unknown>) => void;
  cancel: () => void;
}

/** One tool's test call, kept in the page's TestCallStore (lib/mcp/test-calls.ts): it outlives the form. */
export function useTestCall(store: TestCallStore, serverId: string, tool: Tool): UseTestCallResult {
  const key = testCallKey(serverId, tool.name);
  const entry = useStore(store, () => store.get(key), { fallback: store.get(key) });
  const call = useCallback((args: Record<string, unknown>) => store.call(serverId, tool, args), [store, serverId, tool]);
  const cancel = useCallback(() => store.cancel(key), [store, key]);
  return { state: entry.state, lastArgs: entry.args, task: entry.task, call, cancel };
}
