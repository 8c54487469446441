/**
 * Host functions that also report each MCP call they make (original server and tool names, the
 * arguments, when, and how it ended), for eval assertions, compare figures and traces. Wraps
 * any host (the page's debug host, or the headless runner's live one); the call itself is
 * unchanged.
 */
import { originalNames, type NameMap } from "./mcp-tools";
import type { HostFunction, HostFunctions } from "../sandbox/types";
import { messageOf } from "../text/error-message";

/** One MCP call a run made. */
export interface MadeToolCall {
  server: string;
  tool: string;
  args: unknown;
  ok: boolean;
  /** Epoch milliseconds. */
  startedAt: number;
  endedAt: number;
  /** The error's message when the call failed. */
  error?: string;
}

/** The same host functions, reporting each call to `sink` when it ends. */
export function recordCalls(host: HostFunctions, names: NameMap, sink: (call: MadeToolCall) => void): HostFunctions {
  const whereOf = originalNames(names);
  return Object.fromEntries(
    Object.entries(host).map(([namespace, fns]) => {
      return [
        namespace,
        Object.fromEntries(
          Object.entries(fns).map(([fn, call]): [string, HostFunction] => {
            const where = whereOf(namespace, fn);
            return [
              fn,
              async (args, signal, info) => {
                const startedAt = Date.now();
                try {
                  const value = await call(args, signal, info);
                  sink({ ...where, args, ok: true, startedAt, endedAt: Date.now() });
                  return value;
                } catch (error) {
                  sink({ ...where, args, ok: false, startedAt, endedAt: Date.now(), error: messageOf(error) });
                  throw error;
                }
              },
            ];
          }),
        ),
      ];
    }),
  );
}
