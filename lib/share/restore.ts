/**
 * The recipient's side of shared servers: which ones are already registered, which can be added
 * as they are, which need secrets first ("needs connection"), and which would run a command on
 * this machine. Adding one turns it plus the secrets the person typed into a ServerInput for the
 * registry. Nothing here connects: the page adds a server only when the person asks. Pure.
 */
import { REDACTED } from "../secrets/redact";
import type { ServerInput } from "../mcp/server-input";
import type { ServerConfig } from "../mcp/types";
import type { SecretSlot, ShareServer } from "./schema";
import { toShareServer } from "./server-to-share";

/** Where a shared server stands for this person. */
export type SharedServerStatus =
  /** A registered server has the same address (secrets aside): nothing to add. */
  | "registered"
  /** No secrets: can be added as it is. */
  | "ready"
  /** The original had secrets: ask for them, then add. */
  | "needs-connection"
  /** stdio: adding it runs a command on this machine, so it is never added in bulk. */
  | "local-command";

/** One shared server and what to offer for it. */
export interface SharedServerPlan {
  server: ShareServer;
  status: SharedServerStatus;
  /** The registered server it matches, when `registered`. */
  registeredName?: string;
}

/** Values the person typed, by slotKey. */
export type SecretValues = Readonly<Record<string, string>>;

/** A stable key for a secret slot (form field names, SecretValues keys). */
export function slotKey(slot: SecretSlot): string {
  return `${slot.where}:${slot.name}`;
}

function sameAddress(shared: ShareServer, registered: ServerConfig): boolean {
  if (shared.transport !== registered.transport) return false;
  // Compare in shared form, so a registered URL with its token still matches the token-less one.
  const mine = toShareServer(registered);
  if (!mine.ok) return false;
  if (shared.transport === "stdio") return mine.server.command === shared.command && (mine.server.args ?? []).join("\0") === (shared.args ?? []).join("\0");
  return mine.server.url === shared.url;
}

/** What to offer for each shared server, given the servers this person has registered. */
export function planSharedServers(servers: readonly ShareServer[], registered: readonly ServerConfig[]): SharedServerPlan[] {
  return servers.map((server) => {
    const match = registered.find((config) => sameAddress(server, config));
    if (match) return { server, status: "registered", registeredName: match.name };
    if (server.transport === "stdio") return { server, status: "local-command" };
    return { server, status: server.hadSecrets ? "needs-connection" : "ready" };
  });
}

function filled(values: SecretValues, slot: SecretSlot): string | undefined {
  const value = values[slotKey(slot)];
  return value !== undefined && value !== "" ? value : undefined;
}

function fillArgs(args: readonly string[], slots: readonly SecretSlot[], values: SecretValues): string[] {
  const out = [...args];
  for (const slot of slots) {
    const value = filled(values, slot);
    if (slot.where !== "arg" || value === undefined) continue;
    for (let i = 0; i < out.length; i++) {
      if (out[i] === `${slot.name}=${REDACTED}`) out[i] = `${slot.name}=${value}`;
      else if (out[i] === slot.name && out[i + 1] === REDACTED) out[i + 1] = value;
    }
  }
  return out;
}

function fillUrl(url: string, slots: readonly SecretSlot[], values: SecretValues): string {
  const extra = slots.filter((slot) => (slot.where === "query" || slot.where === "url-credentials") && filled(values, slot) !== undefined);
  if (extra.length === 0) return url;
  const relative = url.startsWith("/");
  const parsed = new URL(url, "http://share.invalid");
  for (const slot of extra) {
    const value = filled(values, slot) ?? "";
    if (slot.where === "query") parsed.searchParams.set(slot.name, value);
    else if (!relative) {
      const colon = value.indexOf(":");
      parsed.username = colon < 0 ? value : value.slice(0, colon);
      parsed.password = colon < 0 ? "" : value.slice(colon + 1);
    }
  }
  return relative ? `${parsed.pathname}${parsed.search}` : parsed.href;
}

function freeName(name: string, taken: readonly Pick<ServerConfig, "name">[]): string {
  const used = new Set(taken.map((s) => s.name.trim().toLowerCase()));
  if (!used.has(name.toLowerCase())) return name;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${name} (shared)` : `${name} (shared ${n})`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/** The registry input for a shared server plus the secrets typed for it; the name is made unique among `taken`. */
export function toServerInput(server: ShareServer, values: SecretValues, taken: readonly Pick<ServerConfig, "name">[]): ServerInput {
  const name = freeName(server.name, taken);
  const record = (where: SecretSlot["where"]) =>
    Object.fromEntries(
      server.secrets.flatMap((slot) => (slot.where === where && filled(values, slot) !== undefined ? [[slot.name, filled(values, slot) ?? ""]] : [])),
    );
  if (server.transport === "stdio") {
    return {
      name,
      transport: "stdio",
      command: server.command ?? "",
      args: fillArgs(server.args ?? [], server.secrets, values),
      env: record("env"),
      enabled: true,
    };
  }
  return {
    name,
    transport: server.transport,
    url: fillUrl(server.url ?? "", server.secrets, values),
    headers: record("header"),
    ...(server.protocolEra ? { protocolEra: server.protocolEra } : {}),
    enabled: true,
  };
}
