/**
 * Import and export of the `mcpServers` JSON that desktop MCP clients use (Claude Desktop,
 * Cursor, Claude Code, VS Code's `servers`), to and from `ServerConfig`. Pure.
 *
 * Import is lenient about dialects (`type: "http" | "streamable-http" | "streamableHttp" | "sse" |
 * "stdio"`, `serverUrl` for `url`, `disabled`) and strict about meaning (a URL must be http(s),
 * stdio needs a command, not both). Export writes `type` explicitly so every client reads the
 * transport the same way; with `omitSecrets` it leaves secret headers, env values and query
 * parameters out and lists what it left out, so the UI can say so.
 *
 * `protocolEra` ("auto" | "modern" | "legacy", the MCP Inspector's name and values) forces a
 * remote server's protocol era (docs/mcp-client.md, "Protocol eras"); absent means "auto".
 */
import { visibleText } from "../text/hidden-characters";
import * as z from "zod";
import { isCredentialValue, isSecretKey } from "../secrets/redact";
import type { ServerConfig, TransportKind } from "./types";
import { messageOf } from "../text/error-message";
import { isRecord } from "../text/json-value";
import { formatPath } from "../text/json-path";

/** Outcome of an import: servers plus warnings, or every error found (each with its path). */
export type ImportResult = { ok: true; servers: ServerConfig[]; warnings: string[] } | { ok: false; errors: string[] };

/** One entry as written by desktop clients. */
export type McpServerEntry =
  | { type: "http" | "sse"; url: string; headers?: Record<string, string>; protocolEra?: "modern" | "legacy"; disabled?: boolean }
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string; disabled?: boolean };

/** The file: `{ "mcpServers": { name: entry } }`. */
export interface McpServersFile {
  mcpServers: Record<string, McpServerEntry>;
}

/** Export result; `omitted` lists the paths of secrets left out. */
export interface ExportResult {
  config: McpServersFile;
  omitted: string[];
}

const TYPE_ALIASES: Record<string, TransportKind> = {
  http: "streamable-http",
  "streamable-http": "streamable-http",
  streamablehttp: "streamable-http",
  streamable_http: "streamable-http",
  sse: "sse",
  stdio: "stdio",
};

const stringRecord = z.record(z.string(), z.string({ error: "must be a string" }));
const KNOWN_KEYS = new Set(["type", "transport", "url", "serverUrl", "headers", "command", "args", "env", "cwd", "protocolEra", "disabled", "enabled"]);

const entrySchema = z
  .object({
    type: z.string().optional(),
    transport: z.string().optional(),
    url: z.string().optional(),
    serverUrl: z.string().optional(),
    headers: stringRecord.optional(),
    command: visibleText(z.string()).optional(),
    args: z.array(visibleText(z.string({ error: "must be a string" }))).optional(),
    env: stringRecord.optional(),
    cwd: z.string().optional(),
    protocolEra: z.enum(["auto", "modern", "legacy"], { error: 'must be "auto", "modern" or "legacy"' }).optional(),
    disabled: z.boolean().optional(),
    enabled: z.boolean().optional(),
  })
  .loose()
  .superRefine((entry, ctx) => {
    const declared = entry.type ?? entry.transport;
    const url = entry.url ?? entry.serverUrl;
    if (declared !== undefined && !(declared.toLowerCase() in TYPE_ALIASES)) {
      ctx.addIssue({ code: "custom", path: ["type"], message: `unknown transport "${declared}" (use http, sse or stdio)` });
    }
    if (url !== undefined && entry.command !== undefined) {
      ctx.addIssue({ code: "custom", message: "has both url and command; keep one" });
    } else if (url === undefined && entry.command === undefined) {
      ctx.addIssue({ code: "custom", message: "needs a url (remote server) or a command (local stdio server)" });
    }
    if (url !== undefined && !isHttpUrl(url)) {
      ctx.addIssue({ code: "custom", path: [entry.url !== undefined ? "url" : "serverUrl"], message: `"${url}" is not an http(s) URL` });
    }
    if (entry.command !== undefined && entry.command.trim() === "") {
      ctx.addIssue({ code: "custom", path: ["command"], message: "must not be empty" });
    }
  });

const serversSchema = z.record(z.string(), entrySchema);

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** Turns a server name into an id: lower-case, dashes, unique among `taken`. */
export function serverIdFor(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "server";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

type Entry = z.infer<typeof entrySchema>;

function toServerConfig(name: string, entry: Entry, id: string): ServerConfig {
  const declared = (entry.type ?? entry.transport)?.toLowerCase();
  const url = entry.url ?? entry.serverUrl;
  const transport: TransportKind = declared ? (TYPE_ALIASES[declared] ?? "streamable-http") : entry.command ? "stdio" : "streamable-http";
  const enabled = entry.enabled ?? !(entry.disabled ?? false);
  if (transport === "stdio") {
    return {
      id,
      name,
      transport,
      command: entry.command ?? "",
      args: entry.args ?? [],
      env: entry.env ?? {},
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
      enabled,
    };
  }
  const era = transport === "streamable-http" && entry.protocolEra !== undefined && entry.protocolEra !== "auto" ? { protocolEra: entry.protocolEra } : {};
  return { id, name, transport, url: url ?? "", headers: entry.headers ?? {}, ...era, enabled };
}

function warningsFor(name: string, entry: Entry): string[] {
  const out: string[] = [];
  const ignored = Object.keys(entry).filter((k) => !KNOWN_KEYS.has(k));
  if (ignored.length > 0) out.push(`${formatPath(["mcpServers", name])}: ignored ${ignored.join(", ")}`);
  if (entry.protocolEra !== undefined && entry.protocolEra !== "auto" && toServerConfig(name, entry, "").transport !== "streamable-http") {
    out.push(
      `${formatPath(["mcpServers", name, "protocolEra"])}: ignored; only Streamable HTTP servers take an era setting (a local server's era is found on its own connection; legacy SSE is 2025-11-25)`,
    );
  }
  for (const [where, record] of [
    ["headers", entry.headers],
    ["env", entry.env],
  ] as const) {
    for (const [key, value] of Object.entries(record ?? {})) {
      if (/\$\{[^}]+\}/.test(value)) out.push(`${formatPath(["mcpServers", name, where, key])} holds a placeholder (${value}); fill it in before connecting`);
    }
  }
  return out;
}

/** The largest mcp.json the CLI reads (a config of hundreds of servers is well under 100 KiB). */
export const MCP_CONFIG_MAX_BYTES = 1024 * 1024;

/** A config given as JSON text or as an already parsed value; broken JSON is an error that says so. */
export function configValue(input: unknown): { ok: true; data: unknown } | { ok: false; errors: string[] } {
  if (typeof input !== "string") return { ok: true, data: input };
  try {
    return { ok: true, data: JSON.parse(input) as unknown };
  } catch (error) {
    return { ok: false, errors: [`not valid JSON: ${messageOf(error)}`] };
  }
}

/** Parses an `mcpServers` file (JSON text, or an already parsed value) into server configs. */
export function importMcpServersConfig(input: unknown, options: { existingIds?: Iterable<string> } = {}): ImportResult {
  const read = configValue(input);
  if (!read.ok) return read;
  const data = read.data;
  // Desktop clients use `mcpServers`; VS Code uses `servers`. Other top-level keys are ignored.
  const key = isRecord(data) ? (["mcpServers", "servers"] as const).find((k) => k in data) : undefined;
  if (!isRecord(data) || key === undefined) return { ok: false, errors: ['(root): expected an object with an "mcpServers" key'] };
  const parsed = serversSchema.safeParse(data[key]);
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map((i) => `${formatPath([key, ...i.path])}: ${i.message}`) };
  }
  const entries = parsed.data;
  const taken = new Set(options.existingIds ?? []);
  const servers: ServerConfig[] = [];
  const warnings: string[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    const id = serverIdFor(name, taken);
    taken.add(id);
    servers.push(toServerConfig(name, entry, id));
    warnings.push(...warningsFor(name, entry));
  }
  return { ok: true, servers, warnings };
}

function keepRecord(record: Record<string, string> | undefined, path: string[], omitSecrets: boolean, omitted: string[]): Record<string, string> | undefined {
  if (!record || Object.keys(record).length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (omitSecrets && (isSecretKey(key) || isCredentialValue(value))) omitted.push(formatPath([...path, key]));
    else out[key] = value;
  }
  return out;
}

function keepUrl(url: string, path: string[], omitSecrets: boolean, omitted: string[]): string {
  if (!omitSecrets) return url;
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      omitted.push(`${formatPath(path)} (credentials)`);
      u.username = "";
      u.password = "";
    }
    for (const key of [...u.searchParams.keys()]) {
      if (isSecretKey(key)) {
        omitted.push(`${formatPath(path)}?${key}`);
        u.searchParams.delete(key);
      }
    }
    return u.href;
  } catch {
    return url;
  }
}

/** Writes server configs as an `mcpServers` file; `omitSecrets` leaves secrets out and lists them. */
export function exportMcpServersConfig(servers: readonly ServerConfig[], options: { omitSecrets?: boolean } = {}): ExportResult {
  const omitSecrets = options.omitSecrets ?? false;
  const omitted: string[] = [];
  const mcpServers: Record<string, McpServerEntry> = {};
  for (const server of servers) {
    let key = server.name;
    for (let n = 2; key in mcpServers; n++) key = `${server.name} (${n})`;
    const path = ["mcpServers", key];
    const disabled = server.enabled ? {} : { disabled: true };
    if (server.transport === "stdio") {
      const env = keepRecord(server.env, [...path, "env"], omitSecrets, omitted);
      mcpServers[key] = {
        command: server.command ?? "",
        ...(server.args && server.args.length > 0 ? { args: [...server.args] } : {}),
        ...(env ? { env } : {}),
        ...(server.cwd ? { cwd: server.cwd } : {}),
        ...disabled,
      };
    } else {
      const headers = keepRecord(server.headers, [...path, "headers"], omitSecrets, omitted);
      mcpServers[key] = {
        type: server.transport === "sse" ? "sse" : "http",
        url: keepUrl(server.url ?? "", [...path, "url"], omitSecrets, omitted),
        ...(headers ? { headers } : {}),
        ...(server.protocolEra ? { protocolEra: server.protocolEra } : {}),
        ...disabled,
      };
    }
  }
  return { config: { mcpServers }, omitted };
}
