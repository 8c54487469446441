/**
 * What a person does to the page's servers from the server panels: add, edit, remove, turn on
 * and off, reconnect, sign in, import and export, forget secrets (docs/page-state.md, "Page
 * state"). The panels call these and read the servers' view store; none of them holds the
 * registry or the connection manager. Built once per page by the composition root
 * (lib/playground/browser/page-playground.ts), with the browser's OAuth when there is one.
 */
import type { ConnectionManager } from "../mcp/connection-manager";
import type { ExportResult } from "../mcp/config";
import type { LoggingLevel } from "@modelcontextprotocol/client";
import type { ImportOutcome, RegistryResult, RestoreOutcome, ServerInput, ServerRegistry } from "../mcp/registry";

/** The part of the browser's OAuth (lib/mcp/browser/browser-oauth.ts) the actions drive. */
export interface SignInFlow {
  signIn(serverId: string): void;
  restart(serverId: string): void;
  settle(serverId: string): void;
  forgetAll(): Promise<void>;
}

type Registry = Pick<
  ServerRegistry,
  "add" | "update" | "remove" | "setEnabled" | "problems" | "importConfig" | "exportConfig" | "restoreDemoServers" | "forgetSecrets"
>;
type Manager = Pick<ConnectionManager, "reconnect" | "connection">;

export class ServerActions {
  readonly #registry: Registry;
  readonly #manager: Manager;
  readonly #oauth: SignInFlow | undefined;

  constructor(registry: Registry, manager: Manager, oauth?: SignInFlow) {
    this.#registry = registry;
    this.#manager = manager;
    this.#oauth = oauth;
  }

  /** Whether this page can sign in to servers (the browser's OAuth). */
  get canSignIn(): boolean {
    return this.#oauth !== undefined;
  }

  /** What is wrong with the stored servers (a file that could not be read, a server dropped). */
  problems(): readonly string[] {
    return this.#registry.problems();
  }

  add(input: ServerInput): RegistryResult {
    return this.#registry.add(input);
  }

  update(id: string, patch: Partial<ServerInput>): RegistryResult {
    return this.#registry.update(id, patch);
  }

  remove(id: string): void {
    this.#registry.remove(id);
  }

  setEnabled(id: string, enabled: boolean): void {
    this.#registry.setEnabled(id, enabled);
  }

  /** The card's Reconnect: a local server's process starts again, for every tab that shares it. */
  reconnect(id: string): void {
    void this.#manager.reconnect(id, { freshProcess: true });
  }

  /**
   * Sign in, or sign in again from the start (`restart`). Called inside the person's click: the
   * popup opens now, and the flow points it at the authorization server once the connection asks.
   */
  signIn(id: string, restart: boolean): void {
    const oauth = this.#oauth;
    if (!oauth) return;
    if (restart) oauth.restart(id);
    else oauth.signIn(id);
    void this.#manager.reconnect(id).then(() => oauth.settle(id));
  }

  /** The server's logging level (logging/setLevel); refused with words when it is not connected. */
  setLogLevel(id: string, serverName: string, level: LoggingLevel): Promise<void> {
    return this.#manager.connection(id)?.setLogLevel(level) ?? Promise.reject(new Error(`${serverName} is not connected.`));
  }

  importConfig(json: unknown): ImportOutcome {
    return this.#registry.importConfig(json);
  }

  exportConfig(options: { omitSecrets?: boolean; baseUrl?: string }): ExportResult {
    return this.#registry.exportConfig(options);
  }

  restoreDemoServers(): RestoreOutcome {
    return this.#registry.restoreDemoServers();
  }

  /** Every header, token and env value this browser keeps, and every OAuth token. */
  forgetSecrets(): void {
    this.#registry.forgetSecrets();
    void this.#oauth?.forgetAll();
  }
}
