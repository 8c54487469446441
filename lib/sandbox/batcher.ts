/**
 * Coalesces the messages one side queues in a turn into a single postMessage. Queued messages
 * go out at the end of the turn (a microtask), as one `batch` when there are several; `send`
 * goes at once but after anything queued, so the other side sees the same order.
 */
export class Batcher<Single extends { runId: string | null }, Queued extends Single & { runId: string }, Batch> {
  private pending: Queued[] = [];
  private scheduled = false;

  constructor(
    private readonly post: (message: Single | Batch) => void,
    private readonly batch: (runId: string, messages: Queued[]) => Batch,
  ) {}

  /** Queues a message to leave with the others of its run at the end of this turn. */
  queue(message: Queued): void {
    if (this.pending.length > 0 && this.pending[0]?.runId !== message.runId) this.flush();
    this.pending.push(message);
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Sends a message now, after whatever is queued. */
  send(message: Single): void {
    this.flush();
    this.post(message);
  }

  private flush(): void {
    this.scheduled = false;
    const messages = this.pending;
    if (messages.length === 0) return;
    this.pending = [];
    const [only] = messages;
    this.post(messages.length === 1 && only ? only : this.batch(only?.runId ?? "", messages));
  }
}
