/**
 * Collects what a run streams (events, call info) and hands it over in one batch per animation
 * frame, so the page renders once per frame however many calls end in it. A run of 1 000 parallel
 * calls sends a few thousand messages; rendering for each one kept the main thread busy with
 * React and layout while the calls themselves waited. When frames stop (a hidden tab) a timer
 * delivers after `maxDelayMs`. With `minIntervalMs`, batches come at most that often: on a slow
 * machine a frame of the timeline costs several milliseconds of React, style, layout and paint,
 * and rendering it at 60 Hz left sequential calls waiting behind frames (a call took about 5 ms
 * longer with the timeline on screen). Framework-free: the clocks are injected for tests.
 */
export interface FrameClock {
  requestFrame: (callback: () => void) => unknown;
  cancelFrame: (handle: unknown) => void;
  setTimer: (callback: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
  /** Milliseconds from any fixed origin. */
  now: () => number;
}

/** The browser's clocks; without requestAnimationFrame (Node, a worker) a zero timer stands in. */
export function defaultFrameClock(): FrameClock {
  const raf = typeof globalThis.requestAnimationFrame === "function";
  return {
    requestFrame: (callback) => (raf ? globalThis.requestAnimationFrame(callback) : setTimeout(callback, 0)),
    cancelFrame: (handle) => (raf ? globalThis.cancelAnimationFrame(handle as number) : clearTimeout(handle as ReturnType<typeof setTimeout>)),
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    now: () => performance.now(),
  };
}

export class FrameQueue<T> {
  private items: T[] = [];
  private frame: unknown;
  private timer: unknown;
  /** The timer that waits out `minIntervalMs` before a frame is asked for. */
  private spacing: unknown;
  private lastDelivery = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deliver: (items: T[]) => void,
    private readonly maxDelayMs = 100,
    private readonly clock: FrameClock = defaultFrameClock(),
    private readonly minIntervalMs = 0,
  ) {}

  /** Queues an item for the next frame (or the first frame `minIntervalMs` after the last batch). */
  push(item: T): void {
    this.items.push(item);
    if (this.frame !== undefined || this.spacing !== undefined) return;
    const wait = this.lastDelivery + this.minIntervalMs - this.clock.now();
    if (wait <= 0) return this.schedule();
    this.spacing = this.clock.setTimer(() => {
      this.spacing = undefined;
      this.schedule();
    }, wait);
  }

  /** Delivers what is queued now (before a run's final state, so nothing arrives after it). */
  flush(): void {
    this.cancel();
    const items = this.items;
    if (items.length === 0) return;
    this.items = [];
    this.lastDelivery = this.clock.now();
    this.deliver(items);
  }

  /** Drops what is queued (the page is going away). */
  dispose(): void {
    this.cancel();
    this.items = [];
  }

  private schedule(): void {
    this.frame = this.clock.requestFrame(() => this.flush());
    this.timer = this.clock.setTimer(() => this.flush(), this.maxDelayMs);
  }

  private cancel(): void {
    if (this.frame !== undefined) this.clock.cancelFrame(this.frame);
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    if (this.spacing !== undefined) this.clock.clearTimer(this.spacing);
    this.frame = this.timer = this.spacing = undefined;
  }
}
