/**
 * A server whose connection dropped and is being tried again (connection-manager.ts, `restart`)
 * keeps its namespace in programs: each of its functions fails at once with a sentence that says
 * the server is down and when it is tried again, instead of `ev3 is not defined`, and the
 * timeline shows the call with that error. A registered server that is not connected at all has
 * no namespace: a program naming it fails with a ReferenceError, which the run's result then
 * explains the same way (`explainNotConnected`).
 */
import { sanitiseIdentifier } from "../codemode/names";
import type { ServerConfig } from "../mcp/types";
import type { ServerStatus } from "../mcp/server-status";
import type { HostServer } from "./mcp-tools";

/** The message a call to a server that is down fails with. */
export function unavailableMessage(server: string, status: ServerStatus, now: number): string {
  const reason = status.state === "error" ? ` (${status.error.message})` : "";
  const restart = status.state === "error" || status.state === "connecting" ? status.restart : undefined;
  const when = restart
    ? ` It is tried again ${restart.at > now ? `in ${Math.ceil((restart.at - now) / 1_000)} s` : "now"} (try ${restart.attempt} of ${restart.of}).`
    : "";
  return `Server "${server}" is unavailable: its connection was lost${reason}.${when}`;
}

/** A host server for `name` whose every call fails with the reason, or undefined when it is not being tried again. */
export function unavailableServer(name: string, status: ServerStatus | undefined, now: () => number = Date.now): HostServer | undefined {
  if (!status || (status.state !== "error" && status.state !== "connecting") || !status.restart || !status.tools) return undefined;
  const fail = () => Promise.reject(new Error(unavailableMessage(name, status, now())));
  return { name, tools: status.tools, connection: { callTool: fail, readResource: fail } };
}

/** Why a registered server has no namespace in programs now, in words. */
export function notConnectedMessage(server: string, config: Pick<ServerConfig, "enabled">, status: ServerStatus | undefined): string {
  const why = !config.enabled
    ? "it is switched off in the Servers panel"
    : status?.state === "connecting"
      ? "it is still connecting"
      : status?.state === "error"
        ? `it could not connect (${status.error.message})`
        : "it has not connected yet";
  return `Server "${server}" is not connected: ${why}. Connect it in the Servers panel, then run again.`;
}

/**
 * The namespace of each registered server that programs cannot call now, with why (servers
 * being tried again keep a namespace and are left out: their calls say so themselves).
 */
export function notConnectedNamespaces(
  servers: readonly ServerConfig[],
  statuses: Readonly<Record<string, ServerStatus>>,
  callable: ReadonlySet<string>,
): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const config of servers) {
    if (callable.has(config.name)) continue;
    const status = statuses[config.id];
    if (config.enabled && status && unavailableServer(config.name, status)) continue;
    const namespace = sanitiseIdentifier(config.name, true);
    if (!out.has(namespace)) out.set(namespace, notConnectedMessage(config.name, config, status));
  }
  return out;
}

const NOT_DEFINED = /^ReferenceError: '?([A-Za-z_$][\w$]*)'? is not defined$/;

/** A run's error message, explained when it is a ReferenceError naming a registered server that is not connected. */
export function explainNotConnected(message: string, notConnected: ReadonlyMap<string, string> | undefined): string {
  const name = NOT_DEFINED.exec(message)?.[1];
  const why = name === undefined ? undefined : notConnected?.get(name);
  return why === undefined ? message : `ReferenceError: ${why}`;
}
