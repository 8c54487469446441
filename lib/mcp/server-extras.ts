/**
 * One server card's resources and prompts (docs/mcp-client.md, "The MCP client"): the resource
 * templates listed when the card's section opens, a resource read or a prompt got on request,
 * subscriptions that read a resource again when the server says it changed, and what came back
 * or went wrong. The page keeps one per server (PageServers.extrasFor); it finds the server's
 * live connection itself on every action, so the card that shows it holds none. A store
 * (lib/state/store.ts).
 */
import type { GetPromptResult, ReadResourceResult, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/client";
import { Store } from "../state/store";
import { messageOf } from "../text/error-message";
import type { McpConnection } from "./live-connection";

/** What the section shows under its lists. */
export type ExtrasShown =
  | { kind: "resource"; uri: string; result: ReadResourceResult; updatedAt?: number }
  | { kind: "prompt"; name: string; result: GetPromptResult }
  | { kind: "error"; text: string };

export interface ServerExtrasState {
  /** The server's resource templates (listed when the section opens on a connection that offers resources). */
  templates: readonly ResourceTemplate[];
  /** Whether the server lets a client subscribe to a resource. */
  canSubscribe: boolean;
  /** The resources subscribed to now. */
  subscribed: readonly string[];
  shown?: ExtrasShown;
}

const EMPTY: ServerExtrasState = { templates: [], canSubscribe: false, subscribed: [] };

export class ServerExtrasStore extends Store<ServerExtrasState> {
  /** The connection the templates and subscriptions belong to. */
  #connection: McpConnection | undefined;
  readonly #stops = new Map<string, () => Promise<void>>();

  constructor(private readonly connectionOf: () => McpConnection | undefined) {
    super(EMPTY);
  }

  /** Lists the templates of the server's connection now; a new connection starts afresh. */
  async open(): Promise<void> {
    const connection = this.connectionOf();
    if (connection === this.#connection) return;
    await this.#forget();
    this.#connection = connection;
    this.set({ ...EMPTY, canSubscribe: connection?.capabilities.resources?.subscribe === true });
    if (!connection?.capabilities.resources) return;
    const templates = await connection.listResourceTemplates().catch(() => []);
    if (this.#connection === connection) this.#update({ templates });
  }

  /** Reads a resource; what it holds (or why not) becomes what the section shows. */
  async read(uri: string, updatedAt?: number): Promise<void> {
    const connection = this.#live();
    if (!connection) return;
    try {
      const result = await connection.readResource(uri);
      this.#update({ shown: { kind: "resource", uri, result, ...(updatedAt ? { updatedAt } : {}) } });
    } catch (error) {
      this.#update({ shown: { kind: "error", text: `Reading ${uri} failed: ${messageOf(error)}` } });
    }
  }

  /** Subscribes to a resource (each change reads it again), or ends the subscription. */
  async toggleSubscription(uri: string): Promise<void> {
    const stop = this.#stops.get(uri);
    if (stop) {
      this.#stops.delete(uri);
      this.#update({ subscribed: [...this.#stops.keys()] });
      await stop().catch(() => undefined);
      return;
    }
    const connection = this.#live();
    if (!connection) return;
    try {
      this.#stops.set(uri, await connection.subscribeResource(uri, () => void this.read(uri, Date.now())));
      this.#update({ subscribed: [...this.#stops.keys()] });
    } catch (error) {
      this.#update({ shown: { kind: "error", text: messageOf(error) } });
    }
  }

  /** Gets a prompt with its arguments; its messages become what the section shows. */
  async getPrompt(name: string, args: Record<string, string>): Promise<void> {
    const connection = this.#live();
    if (!connection) return;
    try {
      this.#update({ shown: { kind: "prompt", name, result: await connection.getPrompt(name, args) } });
    } catch (error) {
      this.#update({ shown: { kind: "error", text: `The prompt ${name} failed: ${messageOf(error)}` } });
    }
  }

  /** Ends every subscription (the card went away). */
  async close(): Promise<void> {
    await this.#forget();
    this.#connection = undefined;
    this.set(EMPTY);
  }

  /** The connection now, or undefined saying so when the server is not connected. */
  #live(): McpConnection | undefined {
    const connection = this.connectionOf();
    if (!connection) this.#update({ shown: { kind: "error", text: "The server is not connected." } });
    return connection;
  }

  async #forget(): Promise<void> {
    const stops = [...this.#stops.values()];
    this.#stops.clear();
    await Promise.all(stops.map((stop) => stop().catch(() => undefined)));
  }

  #update(change: Partial<ServerExtrasState>): void {
    this.set({ ...this.snapshot(), ...change });
  }
}
