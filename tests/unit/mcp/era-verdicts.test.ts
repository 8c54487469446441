/**
 * Era verdicts kept across connects and reloads (lib/mcp/era-verdicts.ts), and a stale one
 * corrected: a server remembered as 2025-11-25 that now speaks only 2026-07-28 connects anyway,
 * its verdict replaced.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryVerdicts, MAX_VERDICTS, storedVerdicts } from "@/lib/mcp/era-verdicts";
import { connectToServer } from "@/lib/mcp/connection";
import { startModernServer, type ModernServer } from "../../fixtures/mcp/modern-server";
import type { TextStorage } from "@/lib/storage/key-value";

function memoryStorage(): TextStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

let modern: ModernServer;
beforeAll(async () => {
  modern = await startModernServer({ tasks: false });
});
afterAll(async () => {
  await modern.close();
});

describe("era verdicts", () => {
  it("kept in storage survive a new page (a new store over the same storage); corrupt data is ignored", () => {
    const storage = memoryStorage();
    storedVerdicts(storage).set("https://a.example/mcp", "legacy");
    storedVerdicts(storage).set("https://b.example/mcp", "modern");
    const later = storedVerdicts(storage);
    expect(later.get("https://a.example/mcp")).toBe("legacy");
    expect(later.get("https://b.example/mcp")).toBe("modern");
    later.forget("https://a.example/mcp");
    expect(storedVerdicts(storage).get("https://a.example/mcp")).toBeUndefined();
    storage.data.set("code-mode-playground.era-verdicts", "{not json");
    expect(storedVerdicts(storage).get("https://b.example/mcp")).toBeUndefined();
    storage.data.set(
      "code-mode-playground.era-verdicts",
      JSON.stringify([
        ["https://c.example", "ancient"],
        ["https://d.example", "modern"],
      ]),
    );
    expect(storedVerdicts(storage).get("https://c.example")).toBeUndefined();
    expect(storedVerdicts(storage).get("https://d.example")).toBe("modern");
  });

  it("keep at most MAX_VERDICTS, the oldest dropped", () => {
    const storage = memoryStorage();
    const verdicts = storedVerdicts(storage);
    const memory = memoryVerdicts();
    for (let i = 0; i <= MAX_VERDICTS; i++) {
      verdicts.set(`https://s${i}.example`, "legacy");
      memory.set(`https://s${i}.example`, "legacy");
    }
    expect(verdicts.get("https://s0.example")).toBeUndefined();
    expect(verdicts.get(`https://s${MAX_VERDICTS}.example`)).toBe("legacy");
    expect(memory.get("https://s0.example")).toBeUndefined();
  });

  it("a remembered 2025-11-25 verdict for a server that now speaks only 2026-07-28 is forgotten, and the connect negotiates", async () => {
    const url = `${modern.url}/mcp`;
    const verdicts = memoryVerdicts();
    verdicts.set(url, "legacy");
    const connection = await connectToServer(
      { id: "m", name: "m", transport: "streamable-http", url, headers: {}, enabled: true },
      { baseUrl: "http://127.0.0.1", proxyUrl: "/api/mcp/proxy", via: "direct", timeoutMs: 5_000, verdicts },
    );
    try {
      expect(connection.protocolVersion).toBe("2026-07-28");
      expect(verdicts.get(url)).toBe("modern");
    } finally {
      await connection.close();
    }
  });
});
