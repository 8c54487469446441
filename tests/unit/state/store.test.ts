/** The one store shape of page state (lib/state/store.ts). */
import { describe, expect, it } from "vitest";
import { Store } from "@/lib/state/store";

class Counter extends Store<{ n: number }> {
  constructor() {
    super({ n: 0 });
  }
  bump(): void {
    this.set({ n: this.snapshot().n + 1 });
  }
  same(): void {
    this.set(this.snapshot());
  }
  get subscribers(): number {
    return this.subscriberCount;
  }
}

describe("Store", () => {
  it("replaces the snapshot and tells subscribers; the same snapshot tells nobody", () => {
    const store = new Counter();
    const first = store.snapshot();
    const seen: number[] = [];
    const off = store.subscribe(() => seen.push(store.snapshot().n));
    store.bump();
    store.same();
    store.bump();
    expect(seen).toEqual([1, 2]);
    expect(first).toEqual({ n: 0 });
    off();
    store.bump();
    expect(seen).toEqual([1, 2]);
    expect(store.subscribers).toBe(0);
  });

  it("one subscriber's throw does not keep the others from hearing, and is rethrown after", () => {
    const store = new Counter();
    const heard: string[] = [];
    store.subscribe(() => {
      throw new Error("broken listener");
    });
    store.subscribe(() => heard.push("second"));
    expect(() => store.bump()).toThrow("broken listener");
    expect(heard).toEqual(["second"]);
    expect(store.snapshot().n).toBe(1);
  });

  it("subscribe and snapshot are bound, so they can be passed as they are", () => {
    const store = new Counter();
    const { subscribe, snapshot } = store;
    let calls = 0;
    subscribe(() => calls++);
    store.bump();
    expect(snapshot()).toEqual({ n: 1 });
    expect(calls).toBe(1);
  });
});
