/**
 * What an MCP App asks the person (docs/mcp-apps.md, "MCP Apps"): to call a tool that needs
 * approval, to open a link, to put a message or context into the conversation. Each request
 * waits in this store, shown beside the app that made it, until the person allows or denies it,
 * the app goes away (its signal aborts: denied), or the view closes. A store per app view.
 */
import { Store } from "../state/store";

/** What kind of thing the app asks for. */
export type AppRequestKind = "call" | "link" | "message" | "context";

/** One request as the view shows it: every string is the app's or the server's, shown as text. */
export interface AppRequest {
  id: number;
  kind: AppRequestKind;
  /** One line: "Call store.place_order", "Open https://…". */
  title: string;
  /** What exactly would happen (arguments, the link, the message), as JSON or text. */
  detail: string;
}

const NONE: readonly AppRequest[] = Object.freeze([]);

export class AppRequests extends Store<readonly AppRequest[]> {
  #next = 1;
  readonly #waiting = new Map<number, (allowed: boolean) => void>();

  constructor() {
    super(NONE);
  }

  /** Adds a request; resolves true when the person allows it, false when they deny it or `signal` aborts. */
  ask(kind: AppRequestKind, title: string, detail: string, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    const id = this.#next++;
    return new Promise<boolean>((resolve) => {
      const onAbort = () => this.decide(id, false);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.set(id, (allowed) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(allowed);
      });
      this.set([...this.snapshot(), { id, kind, title, detail }]);
    });
  }

  /** The person's answer to one request. */
  decide(id: number, allowed: boolean): void {
    const settle = this.#waiting.get(id);
    if (!settle) return;
    this.#waiting.delete(id);
    this.set(this.snapshot().filter((r) => r.id !== id));
    settle(allowed);
  }

  /** Denies everything waiting (the app closed). */
  denyAll(): void {
    for (const id of [...this.#waiting.keys()]) this.decide(id, false);
  }
}
