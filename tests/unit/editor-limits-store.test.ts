import { describe, expect, it } from "vitest";
import { checkLimits, createLimitsStore, sanitiseOverrides } from "@/lib/editor/limits-store";

function memoryStorage() {
  const data = new Map<string, string>();
  return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe("run limits from the editor", () => {
  it("validates with the sandbox's own rules", () => {
    expect(checkLimits({ maxCalls: 5000, wallMs: 120_000 })).toEqual({ ok: true });
    const bad = checkLimits({ maxCalls: -1 });
    expect(bad.ok).toBe(false);
  });

  it("keeps only editable, positive, finite numbers", () => {
    expect(sanitiseOverrides({ maxCalls: 5000, stackBytes: 1, wallMs: "60", cpuMs: Infinity, memoryBytes: 64 * 1024 * 1024 })).toEqual({
      maxCalls: 5000,
      memoryBytes: 64 * 1024 * 1024,
    });
    expect(sanitiseOverrides(null)).toEqual({});
    expect(sanitiseOverrides(JSON.parse('{"__proto__": {"maxCalls": 9}}'))).toEqual({});
  });

  it("round-trips through storage and survives corrupt data", () => {
    const storage = memoryStorage();
    const store = createLimitsStore(storage);
    store.save({ maxCalls: 5000 });
    expect(store.load()).toEqual({ maxCalls: 5000 });
    storage.data.set("cmp:run-limits:v1", "{not json");
    expect(store.load()).toEqual({});
    expect(createLimitsStore(undefined).load()).toEqual({});
  });
});
