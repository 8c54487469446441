import { describe, expect, it } from "vitest";
import { createCodeStore } from "@/lib/editor/code-store";
import type { TextStorage } from "@/lib/storage/key-value";

function memoryStorage(): TextStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe("createCodeStore", () => {
  it("round-trips code and reports nothing saved as undefined", () => {
    const storage = memoryStorage();
    const store = createCodeStore(storage);
    expect(store.load()).toBeUndefined();
    store.save("return 1");
    expect(store.load()).toBe("return 1");
  });

  it("does not persist very large scripts and survives a storage that throws", () => {
    const storage = memoryStorage();
    createCodeStore(storage).save("x".repeat(600 * 1024));
    expect(storage.data.size).toBe(0);
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("quota");
      },
    };
    const store = createCodeStore(broken);
    expect(() => store.save("return 1")).not.toThrow();
    expect(store.load()).toBeUndefined();
    expect(createCodeStore(undefined).load()).toBeUndefined();
  });
});
