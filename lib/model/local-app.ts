/**
 * Whether this app runs on the person's own machine: every socket it listens on at the
 * request's port is loopback, and no proxy forwarded the request for another machine. Then
 * a private model base URL (Ollama on localhost) is the person's own; on a hosted instance
 * it would be the host's network. Same facts as the stdio bridge's guard (lib/mcp/local-guard.ts).
 */
import { isLoopbackAddress, processListenAddresses } from "../mcp/local-guard";

/** Addresses the process listens on at a port (injected in tests). */
export type ListenAddresses = (port: number) => readonly string[] | undefined;

function portOf(request: Request): number {
  const url = new URL(request.url);
  const host = request.headers.get("host") ?? url.host;
  const match = /:(\d{1,5})$/.exec(host);
  if (match?.[1]) return Number(match[1]);
  return url.protocol === "https:" ? 443 : 80;
}

function forwardedForOthers(headers: Headers): boolean {
  const names = [headers.get("x-forwarded-for"), headers.get("x-real-ip")].filter((v): v is string => v !== null);
  return names
    .flatMap((v) => v.split(","))
    .map((v) => v.trim().replace(/^\[|\]$/g, ""))
    .some((v) => v !== "" && !isLoopbackAddress(v));
}

/** True when the app listens only on loopback at the request's port and the request came from this machine. */
export function appRunsOnLoopback(request: Request, listenAddresses: ListenAddresses = processListenAddresses): boolean {
  const listening = listenAddresses(portOf(request));
  if (!listening || listening.length === 0 || !listening.every(isLoopbackAddress)) return false;
  return !forwardedForOthers(request.headers);
}
