/**
 * A server whose connection dropped and is being tried again (connection-manager.ts, `restart`)
 * keeps its namespace in programs: each of its functions fails at once with a sentence that says
 * the server is down and when it is tried again, instead of `ev3 is not defined`, and the
 * timeline shows the call with that error.
 */
import type { ServerStatus } from "./connection-manager";
import type { HostServer } from "./host-functions";

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
