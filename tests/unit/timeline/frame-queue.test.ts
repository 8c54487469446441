import { describe, expect, it } from "vitest";
import { FrameQueue, type FrameClock } from "@/lib/timeline/frame-queue";

/** A clock whose frames and timers run only when the test says so. */
function manualClock() {
  const frames = new Map<number, () => void>();
  const timers = new Map<number, () => void>();
  let next = 1;
  let time = 0;
  const clock: FrameClock = {
    now: () => time,
    requestFrame: (callback) => (frames.set(next, callback), next++),
    cancelFrame: (handle) => frames.delete(handle as number),
    setTimer: (callback) => (timers.set(next, callback), next++),
    clearTimer: (handle) => timers.delete(handle as number),
  };
  const run = (queue: Map<number, () => void>) => {
    const due = [...queue.values()];
    queue.clear();
    for (const callback of due) callback();
  };
  return {
    clock,
    frame: () => run(frames),
    timeout: () => run(timers),
    pending: () => frames.size + timers.size,
    advance: (ms: number) => (time += ms),
  };
}

describe("FrameQueue", () => {
  it("delivers everything pushed before a frame as one batch, in order", () => {
    const { clock, frame, pending } = manualClock();
    const batches: number[][] = [];
    const queue = new FrameQueue<number>((items) => batches.push(items), 100, clock);
    for (let i = 0; i < 1000; i++) queue.push(i);
    expect(batches).toEqual([]);
    frame();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(pending()).toBe(0);
    queue.push(1000);
    frame();
    expect(batches).toEqual([expect.any(Array), [1000]]);
  });

  it("delivers by its timer when no frame comes (a hidden tab)", () => {
    const { clock, timeout, pending } = manualClock();
    const batches: string[][] = [];
    const queue = new FrameQueue<string>((items) => batches.push(items), 100, clock);
    queue.push("a");
    queue.push("b");
    timeout();
    expect(batches).toEqual([["a", "b"]]);
    expect(pending()).toBe(0);
  });

  it("flush delivers at once and cancels the scheduled delivery; dispose drops what is queued", () => {
    const { clock, frame, pending } = manualClock();
    const batches: string[][] = [];
    const queue = new FrameQueue<string>((items) => batches.push(items), 100, clock);
    queue.push("now");
    queue.flush();
    expect(batches).toEqual([["now"]]);
    expect(pending()).toBe(0);
    queue.flush();
    expect(batches).toHaveLength(1);
    queue.push("never");
    queue.dispose();
    frame();
    expect(batches).toHaveLength(1);
  });

  it("with a minimum interval, what comes sooner waits for the first frame after it, as one batch", () => {
    const { clock, frame, timeout, pending, advance } = manualClock();
    const batches: string[][] = [];
    const queue = new FrameQueue<string>((items) => batches.push(items), 100, clock, 50);
    queue.push("first");
    frame();
    expect(batches).toEqual([["first"]]);
    advance(10);
    queue.push("a");
    queue.push("b");
    // No frame is asked for before the interval is over: frames that come render nothing new.
    frame();
    expect(batches).toHaveLength(1);
    expect(pending()).toBe(1);
    advance(40);
    timeout();
    frame();
    expect(batches).toEqual([["first"], ["a", "b"]]);
    expect(pending()).toBe(0);
    // Long after the last batch, the next frame delivers at once; flush still cancels a wait.
    advance(500);
    queue.push("c");
    frame();
    advance(1);
    queue.push("d");
    queue.flush();
    expect(batches).toEqual([["first"], ["a", "b"], ["c"], ["d"]]);
    expect(pending()).toBe(0);
  });
});
