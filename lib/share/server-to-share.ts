/**
 * One registered server → its shared form. Copies name, transport, URL, command and args field
 * by field (never a spread), and withholds every secret it can recognise: all header and env
 * values (their names become secret slots the recipient is asked to fill), URL credentials,
 * the URL fragment, secret query parameters, and secret-looking args. Pure.
 */
import { isSecretKey, REDACTED } from "../secrets/redact";
import type { ServerConfig } from "../mcp/types";
import { SHARE_CAPS } from "./caps";
import { cleanLabel, SLOT_NAME } from "./labels";
import type { SecretSlot, ShareServer } from "./schema";
import { isShareableUrl } from "./schema";
import { looksLikeSecret } from "../secrets/patterns";

/** A shared server, or why it was left out. */
export type ShareServerOutcome = { ok: true; server: ShareServer } | { ok: false; reason: string };

// Resolves app-relative URLs (demo servers) without knowing the app's origin.
const PLACEHOLDER_ORIGIN = "http://share.invalid";

function slot(slots: SecretSlot[], where: SecretSlot["where"], name: string): void {
  // A name that is not a plain token is still withheld; it just cannot be named in the prompt.
  if (SLOT_NAME.test(name) && !slots.some((s) => s.where === where && s.name === name) && slots.length < SHARE_CAPS.secretSlots) {
    slots.push({ where, name });
  }
}

function stringKeys(record: unknown): string[] {
  return typeof record === "object" && record !== null ? Object.keys(record) : [];
}

/** The URL without credentials, fragment or secret query parameters; undefined when unusable. */
function shareUrl(raw: unknown, slots: SecretSlot[]): { url: string | undefined; withheld: boolean } {
  if (typeof raw !== "string") return { url: undefined, withheld: false };
  const text = raw.trim();
  let parsed: URL;
  try {
    parsed = new URL(text, PLACEHOLDER_ORIGIN);
  } catch {
    return { url: undefined, withheld: false };
  }
  let withheld = false;
  if (parsed.username !== "" || parsed.password !== "") {
    parsed.username = "";
    parsed.password = "";
    slot(slots, "url-credentials", "userinfo");
    withheld = true;
  }
  // Fragments never reach a server; OAuth implicit flows put access tokens there.
  if (parsed.hash !== "") withheld = true;
  parsed.hash = "";
  for (const [key, value] of [...parsed.searchParams.entries()]) {
    if (isSecretKey(key) || looksLikeSecret(value)) {
      parsed.searchParams.delete(key);
      slot(slots, "query", key);
      withheld = true;
    }
  }
  const relative = text.startsWith("/") && parsed.origin === PLACEHOLDER_ORIGIN;
  const url = relative ? `${parsed.pathname}${parsed.search}` : parsed.href;
  return { url: url.length <= SHARE_CAPS.urlChars && isShareableUrl(url) ? url : undefined, withheld };
}

/** Args with secret values replaced by "[redacted]": `--key=v`, `--key v`, `KEY=v` and credential-shaped args. */
function shareArgs(raw: unknown, slots: SecretSlot[]): { args: string[]; withheld: boolean } {
  const input = Array.isArray(raw) ? raw.filter((a): a is string => typeof a === "string").slice(0, SHARE_CAPS.args) : [];
  const args: string[] = [];
  let withheld = false;
  let redactNext = false;
  for (const arg of input) {
    const assignment = /^(-{0,2})([^=\s]+)=(.*)$/s.exec(arg);
    if (redactNext && !arg.startsWith("-")) {
      args.push(REDACTED);
      withheld = true;
    } else if (/^https?:\/\//i.test(arg)) {
      // `mcp-remote https://host/mcp?token=…`: the same URL rules as a remote server's.
      const cleaned = shareUrl(arg, slots);
      args.push(cleaned.url ?? REDACTED);
      withheld ||= cleaned.withheld || cleaned.url === undefined;
    } else if (assignment && isSecretKey(assignment[2] ?? "")) {
      args.push(`${assignment[1] ?? ""}${assignment[2] ?? ""}=${REDACTED}`);
      slot(slots, "arg", `${assignment[1] ?? ""}${assignment[2] ?? ""}`);
      withheld = true;
    } else if (looksLikeSecret(arg)) {
      args.push(REDACTED);
      withheld = true;
    } else {
      args.push(arg.slice(0, SHARE_CAPS.argChars));
    }
    redactNext = /^-{1,2}[^=\s]+$/.test(arg) && isSecretKey(arg.replace(/^-+/, ""));
    if (redactNext) slot(slots, "arg", arg);
  }
  return { args, withheld };
}

/** The shared form of one server; a server whose URL or command cannot be shared is left out with a reason. */
export function toShareServer(config: Readonly<ServerConfig>): ShareServerOutcome {
  const name = cleanLabel(config.name, "server");
  const slots: SecretSlot[] = [];
  for (const key of stringKeys(config.headers)) slot(slots, "header", key);
  for (const key of stringKeys(config.env)) slot(slots, "env", key);
  let hadSecrets = stringKeys(config.headers).length > 0 || stringKeys(config.env).length > 0;

  if (config.transport === "stdio") {
    const command = typeof config.command === "string" ? config.command.trim() : "";
    if (command === "" || command.length > SHARE_CAPS.argChars || looksLikeSecret(command)) {
      return { ok: false, reason: `${name}: its command cannot be shared` };
    }
    const { args, withheld } = shareArgs(config.args, slots);
    hadSecrets ||= withheld;
    return { ok: true, server: { name, transport: "stdio", command, args, hadSecrets, secrets: slots } };
  }
  if (config.transport !== "streamable-http" && config.transport !== "sse") {
    return { ok: false, reason: `${name}: unknown transport` };
  }
  const { url, withheld } = shareUrl(config.url, slots);
  if (url === undefined) return { ok: false, reason: `${name}: its URL cannot be shared (not http(s), or an app route other than a demo server)` };
  hadSecrets ||= withheld;
  const era = config.transport === "streamable-http" && config.protocolEra ? { protocolEra: config.protocolEra } : {};
  return { ok: true, server: { name, transport: config.transport, url, ...era, hadSecrets, secrets: slots } };
}

/** True when connecting to a shared server needs something from the recipient (its withheld secrets). */
export function needsConnection(server: Pick<ShareServer, "hadSecrets">): boolean {
  return server.hadSecrets;
}
