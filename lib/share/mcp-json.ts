/**
 * A share's servers as an `mcp.json` file for desktop MCP clients ("copy as mcp.json"). Secrets
 * were never in the share; where the original config had a header or env value, the file gets a
 * `${NAME}` placeholder, which clients substitute or people fill in (and which our own import
 * flags). Pure.
 */
import { exportMcpServersConfig } from "../mcp/config";
import type { McpServersFile } from "../mcp/config";
import type { ServerConfig } from "../mcp/types";
import type { SecretSlot, ShareServer } from "./schema";

/** The file and the secrets the person still has to supply (query parameters, URL credentials, args). */
export interface ShareMcpJson {
  config: McpServersFile;
  text: string;
  /** Slots that have no place in the file and must be filled in by hand. */
  missing: string[];
}

/** `${X_API_KEY}` for "x-api-key". */
export function placeholderFor(name: string): string {
  return `\${${name
    .replace(/^-+/, "")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .toUpperCase()}}`;
}

function placeholders(slots: readonly SecretSlot[], where: SecretSlot["where"]): Record<string, string> | undefined {
  const chosen = slots.filter((s) => s.where === where);
  if (chosen.length === 0) return undefined;
  return Object.fromEntries(chosen.map((s) => [s.name, placeholderFor(s.name)]));
}

/** Converts shared servers to an `mcpServers` file with placeholders; `baseUrl` resolves app routes (demo servers). */
export function shareServersToMcpJson(servers: readonly ShareServer[], options: { baseUrl?: string } = {}): ShareMcpJson {
  const missing: string[] = [];
  const configs: ServerConfig[] = servers.map((server, index) => {
    for (const slot of server.secrets) {
      if (slot.where === "query") missing.push(`${server.name}: URL query parameter ${slot.name}`);
      if (slot.where === "url-credentials") missing.push(`${server.name}: URL user and password`);
      if (slot.where === "arg") missing.push(`${server.name}: argument ${slot.name}`);
    }
    const base = { id: `s${index}`, name: server.name, transport: server.transport, enabled: true };
    if (server.transport === "stdio") {
      const env = placeholders(server.secrets, "env");
      return { ...base, command: server.command ?? "", args: [...(server.args ?? [])], ...(env ? { env } : {}) };
    }
    const headers = placeholders(server.secrets, "header");
    const url = server.url ?? "";
    const absolute = url.startsWith("/") && options.baseUrl ? new URL(url, options.baseUrl).href : url;
    return { ...base, url: absolute, ...(headers ? { headers } : {}) };
  });
  const { config } = exportMcpServersConfig(configs);
  return { config, text: `${JSON.stringify(config, null, 2)}\n`, missing };
}
