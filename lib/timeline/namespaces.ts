/**
 * The sanitised namespace and function names the code uses, mapped to the original server and
 * tool names, computed with the same resolveNames call buildHostFunctions makes, so the
 * approval gate and the recorder can speak in the names a person registered. Pure.
 */
import { resolveNames } from "../codemode/names";
import type { ServerTools } from "../codemode/types";
import type { RecordedNamespace } from "./run-record";

/** Namespace mappings for servers, in the same order and with the same collision handling as buildHostFunctions. */
export function namespacesOf(servers: readonly ServerTools[]): RecordedNamespace[] {
  const resolved = resolveNames(servers);
  return servers.map((server, s) => ({
    namespace: resolved.servers[s] ?? "_",
    server: server.name,
    tools: server.tools.map((tool, t) => ({ fn: resolved.tools[s]?.[t] ?? "_", tool: tool.name })),
  }));
}
