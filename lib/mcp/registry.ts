/**
 * The registered MCP servers: a store (lib/state/store.ts) whose snapshot is the immutable list,
 * persisted through an injected RegistryStorage.
 *
 * Seeding: on the first visit (storage never seeded) the four demo servers are registered,
 * enabled, with their app-relative URLs. The seed is remembered, so a person who removes them
 * keeps them removed; `restoreDemoServers()` brings back the missing ones.
 *
 * Import merges: a server whose name matches a registered one (ignoring case) replaces it and
 * keeps its id (so its connection is reconnected, not duplicated); other names are added;
 * servers not in the file stay. One invalid entry rejects the whole import, so a file is never
 * half applied. Within one file, a later entry with the same name wins.
 */
import { Store } from "../state/store";
import { exportMcpServersConfig, importMcpServersConfig, serverIdFor } from "./config";
import type { ExportResult } from "./config";
import { DEMO_SERVER_NAMES, demoServerPath } from "../demo-servers/catalog";
import type { RegistryStorage } from "./registry-storage";
import { toServerConfig, toServerInput, validateServerInput } from "./server-input";
import type { ServerInput, ServerInputIssue } from "./server-input";
import type { ServerConfig } from "./types";
import { isSecretKey } from "../secrets/redact";
import { looksLikeSecret } from "../secrets/patterns";

export type { ServerInput, ServerInputIssue } from "./server-input";

/** Outcome of add and update. */
export type RegistryResult = { ok: true; server: ServerConfig } | { ok: false; issues: ServerInputIssue[] };

/** Outcome of an import: names added and replaced, or every error (nothing applied). */
export type ImportOutcome =
  | {
      ok: true;
      added: string[];
      replaced: string[];
      warnings: string[];
      /** Imported stdio servers, kept switched off until the person has read each command and starts it. */
      awaitingStart: ImportedCommand[];
    }
  | { ok: false; errors: string[] };

/** A local command an import brought in, for the person to review before it runs. */
export interface ImportedCommand {
  id: string;
  name: string;
  command: string;
  args: readonly string[];
  /** Its environment as the review shows it: values of keys or values that look secret masked. */
  env: readonly { key: string; shown: string }[];
}

/** Outcome of restoring the demo servers. */
export interface RestoreOutcome {
  added: string[];
  /** Demo names left out because another server already uses the name. */
  skipped: string[];
}

/** Options of a registry. */
export interface ServerRegistryOptions {
  /** Where to persist; without one the registry lives in memory only. */
  storage?: RegistryStorage;
  /** Register the demo servers on a first visit. Default true. */
  seedDemoServers?: boolean;
}

function freezeServer(server: ServerConfig): ServerConfig {
  if (server.headers) Object.freeze(server.headers);
  if (server.env) Object.freeze(server.env);
  if (server.args) Object.freeze(server.args);
  return Object.freeze(server);
}

function demoInput(name: (typeof DEMO_SERVER_NAMES)[number]): ServerInput {
  return { name, transport: "streamable-http", url: demoServerPath(name), headers: {}, enabled: true };
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** `servers` plus the demo servers missing from it (by URL); a demo name already taken is skipped. */
function withDemoServers(servers: readonly ServerConfig[]): { next: ServerConfig[]; outcome: RestoreOutcome } {
  const next = [...servers];
  const outcome: RestoreOutcome = { added: [], skipped: [] };
  for (const name of DEMO_SERVER_NAMES) {
    if (next.some((s) => s.url === demoServerPath(name))) continue;
    const input = demoInput(name);
    if (validateServerInput(input, next).length > 0) {
      outcome.skipped.push(name);
      continue;
    }
    next.push(freezeServer(toServerConfig(serverIdFor(name, new Set(next.map((s) => s.id))), input)));
    outcome.added.push(name);
  }
  return { next, outcome };
}

/** The registered servers; see the file comment. */
export class ServerRegistry extends Store<readonly ServerConfig[]> {
  private demoSeeded = false;
  private loadProblems: readonly string[] = [];
  private saveProblem: string | undefined;
  private problemList: readonly string[] = Object.freeze([]);
  private readonly storage: RegistryStorage | undefined;

  constructor(options: ServerRegistryOptions = {}) {
    super(Object.freeze([]));
    this.storage = options.storage;
    const loaded = this.storage?.load();
    if (loaded) {
      this.set(Object.freeze(loaded.servers.map((s) => freezeServer({ ...s }))));
      this.demoSeeded = loaded.demoSeeded;
      this.loadProblems = [...loaded.problems];
      this.problemList = Object.freeze([...this.loadProblems]);
    }
    if (!this.demoSeeded && (options.seedDemoServers ?? true)) {
      this.demoSeeded = true;
      this.commit(withDemoServers(this.servers).next);
    }
  }

  /** The servers (the snapshot: an immutable array that changes identity on every change). */
  private get servers(): readonly ServerConfig[] {
    return this.snapshot();
  }

  /** The server with this id. */
  get(id: string): ServerConfig | undefined {
    return this.servers.find((s) => s.id === id);
  }

  /** Messages about stored data that could not be read or written (show them once). */
  problems(): readonly string[] {
    return this.problemList;
  }

  /** Registers a server. */
  add(input: ServerInput): RegistryResult {
    const issues = validateServerInput(input, this.servers);
    if (issues.length > 0) return { ok: false, issues };
    const server = freezeServer(toServerConfig(serverIdFor(input.name.trim(), new Set(this.servers.map((s) => s.id))), input));
    this.commit([...this.servers, server]);
    return { ok: true, server };
  }

  /** Changes a server; the id stays. */
  update(id: string, patch: Partial<ServerInput>): RegistryResult {
    const current = this.get(id);
    if (!current) return { ok: false, issues: [{ field: "name", message: `No server with id "${id}"` }] };
    const input: ServerInput = { ...toServerInput(current), ...patch };
    const issues = validateServerInput(
      input,
      this.servers.filter((s) => s.id !== id),
    );
    if (issues.length > 0) return { ok: false, issues };
    const server = freezeServer(toServerConfig(id, input));
    this.commit(this.servers.map((s) => (s.id === id ? server : s)));
    return { ok: true, server };
  }

  /** Removes a server; false when there was none. */
  remove(id: string): boolean {
    if (!this.get(id)) return false;
    this.commit(this.servers.filter((s) => s.id !== id));
    return true;
  }

  /** Enables or disables a server; false when there was none. */
  setEnabled(id: string, enabled: boolean): boolean {
    const current = this.get(id);
    if (!current) return false;
    if (current.enabled !== enabled) this.commit(this.servers.map((s) => (s.id === id ? freezeServer({ ...s, enabled }) : s)));
    return true;
  }

  /** Merges an `mcpServers` file (text or parsed JSON); see the file comment. */
  importConfig(json: unknown): ImportOutcome {
    const parsed = importMcpServersConfig(json, { existingIds: this.servers.map((s) => s.id) });
    if (!parsed.ok) return parsed;
    let next = [...this.servers];
    const added: string[] = [];
    const replaced: string[] = [];
    const errors: string[] = [];
    const awaitingStart: ImportedCommand[] = [];
    for (const imported of parsed.servers) {
      // An imported file is as foreign as a shared link: its commands run only once the person
      // has seen each one and started it (registry.setEnabled), never on import.
      const incoming = imported.transport === "stdio" ? { ...imported, enabled: false } : imported;
      const existing = next.find((s) => sameName(s.name, incoming.name));
      const input = toServerInput(incoming);
      const issues = validateServerInput(
        input,
        next.filter((s) => s !== existing),
      );
      if (issues.length > 0) {
        errors.push(...issues.map((i) => `mcpServers.${incoming.name}: ${i.message}`));
        continue;
      }
      const id = existing?.id ?? incoming.id;
      if (existing) {
        next = next.map((s) => (s === existing ? freezeServer(toServerConfig(existing.id, input)) : s));
        if (!added.includes(existing.name)) replaced.push(incoming.name);
      } else {
        next.push(freezeServer(toServerConfig(incoming.id, input)));
        added.push(incoming.name);
      }
      if (incoming.transport === "stdio") {
        awaitingStart.push({ id, name: incoming.name, command: incoming.command ?? "", args: incoming.args ?? [], env: reviewedEnv(incoming.env) });
      }
    }
    if (errors.length > 0) return { ok: false, errors };
    this.commit(next);
    return { ok: true, added, replaced, warnings: parsed.warnings, awaitingStart };
  }

  /**
   * Writes the servers as an `mcpServers` file. `baseUrl` turns app-relative URLs (the demo
   * servers) into absolute ones, so another client can use the file.
   */
  exportConfig(options: { omitSecrets?: boolean; baseUrl?: string } = {}): ExportResult {
    const { baseUrl } = options;
    const servers = baseUrl ? this.servers.map((s) => (s.url?.startsWith("/") ? { ...s, url: new URL(s.url, baseUrl).href } : s)) : this.servers;
    return exportMcpServersConfig(servers, { omitSecrets: options.omitSecrets ?? false });
  }

  /** Adds back the demo servers that are missing (by URL); a demo name taken by another server is skipped. */
  restoreDemoServers(): RestoreOutcome {
    const { next, outcome } = withDemoServers(this.servers);
    if (outcome.added.length > 0) this.commit(next);
    return outcome;
  }

  /** Deletes every header and env value, in memory and in storage. */
  forgetSecrets(): void {
    const next = this.servers.map((s) => freezeServer(s.transport === "stdio" ? { ...s, env: {} } : { ...s, headers: {} }));
    this.commit(next);
    this.storage?.forgetSecrets();
  }

  private commit(next: readonly ServerConfig[]): void {
    const servers = Object.freeze([...next]);
    if (this.storage) {
      const saved = this.storage.save({ servers, demoSeeded: this.demoSeeded });
      const problem = saved.ok ? undefined : saved.message;
      if (problem !== this.saveProblem) {
        this.saveProblem = problem;
        this.problemList = Object.freeze(problem === undefined ? [...this.loadProblems] : [...this.loadProblems, problem]);
      }
    }
    this.set(servers);
  }
}

/** An imported command's environment for the review: every key, each value unless it looks secret. */
function reviewedEnv(env: Readonly<Record<string, string>> | undefined): ImportedCommand["env"] {
  return Object.entries(env ?? {}).map(([key, value]) => ({ key, shown: isSecretKey(key) || looksLikeSecret(value) ? "•••• (hidden)" : value }));
}
