/**
 * Collects what a run streams (events, call info) and hands it over in one batch per animation
 * frame, so the page renders once per frame however many calls end in it. A run of 1 000 parallel
 * calls sends a few thousand messages; rendering for each one kept the main thread busy with
 * React and layout while the calls themselves waited. When frames stop (a hidden tab) a timer
 * delivers after `maxDelayMs`. Framework-free: the clocks are injected for tests.
 */
export interface FrameClock {
  requestFrame: (callback: () => void) => unknown;
  cancelFrame: (handle: unknown) => void;
  setTimer: (callback: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
}

/** The browser's clocks; without requestAnimationFrame (Node, a worker) a zero timer stands in. */
export function defaultFrameClock(): FrameClock {
  const raf = typeof globalThis.requestAnimationFrame === "function";
  return {
    requestFrame: (callback) => (raf ? globalThis.requestAnimationFrame(callback) : setTimeout(callback, 0)),
    cancelFrame: (handle) => (raf ? globalThis.cancelAnimationFrame(handle as number) : clearTimeout(handle as ReturnType<typeof setTimeout>)),
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

export class FrameQueue<T> {
  private items: T[] = [];
  private frame: unknown;
  private timer: unknown;

  constructor(
    private readonly deliver: (items: T[]) => void,
    private readonly maxDelayMs = 100,
    private readonly clock: FrameClock = defaultFrameClock(),
  ) {}

  /** Queues an item for the next frame. */
  push(item: T): void {
    this.items.push(item);
    if (this.frame !== undefined) return;
    this.frame = this.clock.requestFrame(() => this.flush());
    this.timer = this.clock.setTimer(() => this.flush(), this.maxDelayMs);
  }

  /** Delivers what is queued now (before a run's final state, so nothing arrives after it). */
  flush(): void {
    this.cancel();
    const items = this.items;
    if (items.length === 0) return;
    this.items = [];
    this.deliver(items);
  }

  /** Drops what is queued (the page is going away). */
  dispose(): void {
    this.cancel();
    this.items = [];
  }

  private cancel(): void {
    if (this.frame !== undefined) this.clock.cancelFrame(this.frame);
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.frame = this.timer = undefined;
  }
}
