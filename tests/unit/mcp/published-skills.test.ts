/**
 * Skills a server publishes, as the page reads them (lib/mcp/published-skills.ts): listed only
 * when asked, a SKILL.md shown once its size and digest match the listing, one whose bytes differ
 * refused with the reason; the store keeps each server's state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectToServer, type McpConnection } from "@/lib/mcp/connection";
import { PublishedSkillsStore } from "@/lib/mcp/published-skills";
import { startModernServer, type ModernServer } from "../../fixtures/mcp/modern-server";

let server: ModernServer;
let connection: McpConnection;
beforeAll(async () => {
  server = await startModernServer({ skills: true, tasks: false });
  connection = await connectToServer(
    { id: "s", name: "s", transport: "streamable-http", url: `${server.url}/mcp`, headers: {}, enabled: true },
    { baseUrl: "http://127.0.0.1", proxyUrl: "/api/mcp/proxy", via: "direct", timeoutMs: 5_000 },
  );
});
afterAll(async () => {
  await connection.close();
  await server.close();
});

describe("published skills", () => {
  it("nothing is asked before the person opens the list; then the skills, a checked SKILL.md, and a tampered one refused", async () => {
    expect(connection.skills).toBe(true);
    const store = new PublishedSkillsStore(() => connection);
    expect(server.methods).not.toContain("skills/list");
    await store.open("s");
    const listed = store.snapshot().s;
    expect(listed?.state).toBe("ready");
    if (listed?.state !== "ready") return;
    expect(listed.skills.map((s) => [s.name, s.description])).toEqual([
      ["summarise", "Summarises a page in three lines."],
      ["tampered", "Looks harmless."],
    ]);
    await store.show("s", "skill://summarise/SKILL.md");
    const shown = store.snapshot().s;
    const file = shown?.state === "ready" && shown.shown && "file" in shown.shown ? shown.shown.file : undefined;
    expect(file?.verified).toBe(true);
    expect(file?.text).toContain("Read the page, then write three lines.");
    await store.show("s", "skill://tampered/SKILL.md");
    const refused = store.snapshot().s;
    const error = refused?.state === "ready" && refused.shown && "error" in refused.shown ? refused.shown.error : "";
    expect(error).toMatch(/^Not shown: .*digest/);
    expect(error).not.toContain("careless");
    store.hide("s");
    expect(store.snapshot().s).toMatchObject({ state: "ready" });
    store.forget("s");
    expect(store.snapshot().s).toBeUndefined();
  });

  it("a server that is not connected, or publishes nothing, says so", async () => {
    const store = new PublishedSkillsStore(() => undefined);
    await store.open("gone");
    expect(store.snapshot().gone).toEqual({ state: "error", error: "This server is not connected, or publishes no skills." });
  });
});
