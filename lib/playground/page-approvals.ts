/**
 * The page's approvals: the prompts waiting for the person (ApprovalBroker), the tools the person
 * marked, and which calls need approval, read at call time from the servers connected then and
 * the marks made so far (approvalPredicate: explicitly destructive tools, plus marked ones).
 */
import { Store } from "../state/store";
import { ApprovalBroker } from "../host-calls/approval-store";
import { approvalPredicate, toolKey, type AnnotatedServer } from "../host-calls/approvals";

/** Marked tools (toolKey). */
class MarkedTools extends Store<ReadonlySet<string>> {
  toggle(server: string, tool: string): void {
    const next = new Set(this.snapshot());
    const key = toolKey(server, tool);
    if (!next.delete(key)) next.add(key);
    this.set(next);
  }
}

export class PageApprovals {
  readonly broker = new ApprovalBroker();
  readonly marked = new MarkedTools(new Set());
  readonly #servers: () => readonly AnnotatedServer[];
  #predicate: { servers: readonly AnnotatedServer[]; marked: ReadonlySet<string>; needs: (server: string, tool: string) => boolean } | undefined;

  constructor(servers: () => readonly AnnotatedServer[]) {
    this.#servers = servers;
  }

  /** Whether a call needs the person's approval now. */
  readonly needsApproval = (server: string, tool: string): boolean => {
    const servers = this.#servers();
    const marked = this.marked.snapshot();
    if (this.#predicate?.servers !== servers || this.#predicate.marked !== marked)
      this.#predicate = { servers, marked, needs: approvalPredicate(servers, marked) };
    return this.#predicate.needs(server, tool);
  };
}

/** Tools that declare destructiveHint (toolKey): they always ask. */
export function destructiveTools(servers: readonly AnnotatedServer[]): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const server of servers) for (const tool of server.tools) if (tool.annotations?.destructiveHint === true) keys.add(toolKey(server.name, tool.name));
  return keys;
}
