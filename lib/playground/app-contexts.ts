/**
 * Context MCP Apps asked to give the model (`ui/update-model-context`), once the person allowed
 * it (docs/mcp-apps.md, "MCP Apps"): the latest per app, sent with the person's next chat
 * message as a part of its own, which the conversation shows, and then forgotten.
 */
import { Store } from "../state/store";

/** One app's context: which app, and the text the model will read. */
export interface AppContext {
  key: string;
  label: string;
  text: string;
}

/** Longest context kept per app, in characters. */
export const MAX_APP_CONTEXT = 8_000;

export class AppContexts extends Store<readonly AppContext[]> {
  constructor() {
    super([]);
  }

  /** Keeps `text` as the app's context, replacing what it gave before. */
  put(key: string, label: string, text: string): void {
    const kept = text.length > MAX_APP_CONTEXT ? `${text.slice(0, MAX_APP_CONTEXT)}… (cut)` : text;
    this.set([...this.snapshot().filter((c) => c.key !== key), { key, label, text: kept }]);
  }

  /** The context to send with the next message (undefined when there is none), and forgets it. */
  readonly take = (): string | undefined => {
    const contexts = this.snapshot();
    if (contexts.length === 0) return undefined;
    this.set([]);
    return contexts.map((c) => `Context from ${c.label}:\n${c.text}`).join("\n\n");
  };
}
