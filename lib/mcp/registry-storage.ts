/**
 * Keeps the server registry in this browser.
 *
 * Where secrets are kept: header values and stdio env values are stored in `localStorage`
 * of this origin, in this browser only, under their own key (SECRETS_KEY), apart from the
 * rest of each server's config (SERVERS_KEY). They are never sent anywhere except to the
 * server they belong to (directly, or through this app's proxy), never put into a share link.
 * `forgetSecrets()` wipes that one key. localStorage is readable by any script on this
 * origin, so the app must never load third-party scripts.
 *
 * Storage is injected (`RemovableTextStorage`), so Node tests use a Map. Reading never throws:
 * unreadable data (corrupt JSON, a shape we do not know, a storage that refuses access)
 * starts clean and is reported in `problems`.
 */
import * as z from "zod";
import { MAX_CALLS_IN_FLIGHT } from "./server-input";
import type { ServerConfig } from "./types";
import { messageOf } from "../text/error-message";
import type { RemovableTextStorage } from "../storage/key-value";

/** Key of the server configs without secrets. The version is in the key: a new format gets a new key. */
export const SERVERS_KEY = "code-mode-playground:mcp-servers:v1";
/** Key of the secrets (headers, env) by server id. */
export const SECRETS_KEY = "code-mode-playground:mcp-secrets:v1";

/** What the registry persists. */
export interface PersistedRegistry {
  servers: readonly ServerConfig[];
  /** The demo servers were registered once; removing them must stick. */
  demoSeeded: boolean;
}

/** What loading found, plus anything that could not be read. */
export interface LoadedRegistry extends PersistedRegistry {
  problems: string[];
}

/** Persistence for the registry. */
export interface RegistryStorage {
  load(): LoadedRegistry;
  /** Writes both keys; a full or refusing storage is reported, not thrown. */
  save(state: PersistedRegistry): { ok: true } | { ok: false; message: string };
  /** Deletes every stored secret at once. */
  forgetSecrets(): void;
}

const stringRecord = z.record(z.string(), z.string());

const storedServer = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  transport: z.enum(["streamable-http", "sse", "stdio"]),
  url: z.string().optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  cwd: z.string().optional(),
  maxCallsInFlight: z.number().int().min(1).max(MAX_CALLS_IN_FLIGHT).optional(),
  protocolEra: z.enum(["modern", "legacy"]).optional(),
  enabled: z.boolean(),
});

const serversFile = z.object({ version: z.literal(1), demoSeeded: z.boolean(), servers: z.array(z.unknown()) });
const secretsFile = z.object({
  version: z.literal(1),
  servers: z.record(z.string(), z.object({ headers: stringRecord.optional(), env: stringRecord.optional() })),
});

type Secrets = z.infer<typeof secretsFile>["servers"];

function read(storage: RemovableTextStorage, key: string, what: string, problems: string[]): unknown {
  try {
    const text = storage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as unknown);
  } catch (error) {
    problems.push(`The saved ${what} could not be read (${messageOf(error)}); starting without them.`);
    return undefined;
  }
}

function loadSecrets(storage: RemovableTextStorage, problems: string[]): Secrets {
  const raw = read(storage, SECRETS_KEY, "server secrets (headers, env)", problems);
  if (raw === undefined) return {};
  const parsed = secretsFile.safeParse(raw);
  if (parsed.success) return parsed.data.servers;
  problems.push("The saved server secrets (headers, env) are not in a format this version knows; starting without them.");
  return {};
}

function withSecrets(server: z.infer<typeof storedServer>, secrets: Secrets): ServerConfig {
  const secret = Object.hasOwn(secrets, server.id) ? secrets[server.id] : undefined;
  if (server.transport === "stdio") return { ...server, args: server.args ?? [], env: { ...secret?.env } };
  return { ...server, headers: { ...secret?.headers } };
}

function split(servers: readonly ServerConfig[]): { configs: unknown[]; secrets: Secrets } {
  const configs: unknown[] = [];
  const secrets: Secrets = {};
  for (const { headers, env, ...rest } of servers) {
    configs.push(rest);
    const hasHeaders = headers !== undefined && Object.keys(headers).length > 0;
    const hasEnv = env !== undefined && Object.keys(env).length > 0;
    if (hasHeaders || hasEnv) secrets[rest.id] = { ...(hasHeaders ? { headers } : {}), ...(hasEnv ? { env } : {}) };
  }
  return { configs, secrets };
}

/** Registry persistence over a Web Storage (localStorage in the app). */
export function createRegistryStorage(storage: RemovableTextStorage): RegistryStorage {
  return {
    load() {
      const problems: string[] = [];
      const raw = read(storage, SERVERS_KEY, "MCP servers", problems);
      if (raw === undefined) return { servers: [], demoSeeded: false, problems };
      const file = serversFile.safeParse(raw);
      if (!file.success) {
        problems.push("The saved MCP servers are not in a format this version knows; starting with the demo servers.");
        return { servers: [], demoSeeded: false, problems };
      }
      const secrets = loadSecrets(storage, problems);
      const servers: ServerConfig[] = [];
      const ids = new Set<string>();
      file.data.servers.forEach((entry, index) => {
        const parsed = storedServer.safeParse(entry);
        if (!parsed.success || ids.has(parsed.data.id)) {
          problems.push(`Saved server #${index + 1} could not be read and was left out.`);
          return;
        }
        ids.add(parsed.data.id);
        servers.push(withSecrets(parsed.data, secrets));
      });
      return { servers, demoSeeded: file.data.demoSeeded, problems };
    },

    save(state) {
      const { configs, secrets } = split(state.servers);
      try {
        storage.setItem(SERVERS_KEY, JSON.stringify({ version: 1, demoSeeded: state.demoSeeded, servers: configs }));
        if (Object.keys(secrets).length === 0) storage.removeItem(SECRETS_KEY);
        else storage.setItem(SECRETS_KEY, JSON.stringify({ version: 1, servers: secrets }));
        return { ok: true };
      } catch (error) {
        return { ok: false, message: `The MCP servers could not be saved in this browser (${messageOf(error)}); changes last until the page is closed.` };
      }
    },

    forgetSecrets() {
      try {
        storage.removeItem(SECRETS_KEY);
      } catch {
        // A storage that refuses access holds nothing we could remove.
      }
    },
  };
}
