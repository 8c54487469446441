/**
 * The live feed of the code-mode MCP server's runs: each execution publishes its run record
 * (already redacted by the RunRecorder) while it goes and when it ends; the playground page
 * subscribes and shows them in its run history. Keeps the latest few so a page that opens
 * later still sees recent runs. Pure: no transport here (the SSE route and the stdio server's
 * push to a playground wrap it).
 */
import type { RunRecord } from "../timeline/run-record";

/** One publication: the record so far, and whether the run has ended. */
export interface FeedUpdate {
  record: RunRecord;
  done: boolean;
}

export type FeedListener = (update: FeedUpdate) => void;

/** Runs kept for subscribers that arrive later. */
export const FEED_RECENT = 20;

export class RunFeed {
  private readonly listeners = new Set<FeedListener>();
  private readonly latest = new Map<string, FeedUpdate>();

  constructor(private readonly keep = FEED_RECENT) {}

  publish(update: FeedUpdate): void {
    this.latest.delete(update.record.id);
    this.latest.set(update.record.id, update);
    while (this.latest.size > this.keep) this.latest.delete(this.latest.keys().next().value as string);
    for (const listener of this.listeners) {
      try {
        listener(update);
      } catch {
        // One broken subscriber must not stop the others or the run.
      }
    }
  }

  /** Subscribes; the recent runs are delivered first, oldest first. Returns the unsubscribe. */
  subscribe(listener: FeedListener): () => void {
    for (const update of this.latest.values()) listener(update);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscribers(): number {
    return this.listeners.size;
  }
}

/** Publishes a run's record at most every `intervalMs` while it goes, and always at the end. */
export function throttledPublisher(publish: (update: FeedUpdate) => void, snapshot: () => RunRecord, intervalMs = 200, now: () => number = () => Date.now()) {
  let last = -Infinity;
  return {
    /** Call on every event; publishes when the interval has passed. */
    tick(): void {
      const t = now();
      if (t - last < intervalMs) return;
      last = t;
      publish({ record: snapshot(), done: false });
    },
    finish(record: RunRecord): void {
      publish({ record, done: true });
    },
  };
}
