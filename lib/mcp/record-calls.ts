/**
 * Host functions that also report each MCP call they make (original server and tool names, the
 * arguments, when, and how it ended), for eval assertions, compare figures and traces. Wraps
 * any host (the page's debug host, or the headless runner's live one); the call itself is
 * unchanged.
 */
import type { HostFunction, HostFunctions } from "../sandbox/types";

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

/** How the code's names map to servers and tools (buildHostFunctions' namespaces, or namespacesOf). */
export type NameMap = ReadonlyArray<{ namespace: string; server: string; tools: ReadonlyArray<{ fn: string; tool: string }> }>;

/** The same host functions, reporting each call to `sink` when it ends. */
export function recordCalls(host: HostFunctions, names: NameMap, sink: (call: MadeToolCall) => void): HostFunctions {
  return Object.fromEntries(
    Object.entries(host).map(([namespace, fns]) => {
      const mapping = names.find((n) => n.namespace === namespace);
      return [
        namespace,
        Object.fromEntries(
          Object.entries(fns).map(([fn, call]): [string, HostFunction] => {
            const where = { server: mapping?.server ?? namespace, tool: mapping?.tools.find((t) => t.fn === fn)?.tool ?? fn };
            return [
              fn,
              async (args, signal, info) => {
                const startedAt = Date.now();
                try {
                  const value = await call(args, signal, info);
                  sink({ ...where, args, ok: true, startedAt, endedAt: Date.now() });
                  return value;
                } catch (error) {
                  sink({ ...where, args, ok: false, startedAt, endedAt: Date.now(), error: error instanceof Error ? error.message : String(error) });
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
