/**
 * The headless runner with a server started as a local command: the reference memory server
 * (@modelcontextprotocol/server-memory) over stdio, the real sandbox, both modes' handlers.
 */
import { createRequire } from "node:module";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openToolWorld, type OpenedToolWorld } from "@/lib/model/node/headless-agent";

const require = createRequire(import.meta.url);
const pkg = require.resolve("@modelcontextprotocol/server-memory/package.json");
const bin = path.join(path.dirname(pkg), (require(pkg) as { bin: Record<string, string> }).bin["mcp-server-memory"] ?? "");

let world: OpenedToolWorld;
beforeAll(async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "cmp-memory-")), "memory.jsonl");
  world = await openToolWorld(
    [{ id: "memory", name: "memory", transport: "stdio", command: process.execPath, args: [bin], env: { MEMORY_FILE_PATH: file }, headers: {}, enabled: true }],
    { baseUrl: "http://127.0.0.1" },
  );
}, 30_000);
afterAll(() => world.close());

describe("headless runner over stdio", () => {
  it("lists the server's tools into the typed API and the classic tools", () => {
    expect(world.catalog.systemPrompt()).toContain("declare namespace memory");
    expect(world.catalog.classicTools.map((t) => t.name)).toContain("memory__create_entities");
  });

  it("a program calls the stdio server through the host functions; each call is recorded", async () => {
    const result = await world.handlers.runCode(
      `await memory.create_entities({ entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] });
const graph = await memory.read_graph({});
return graph.entities.map((e) => e.name);`,
      "t1",
    );
    expect(result).toMatchObject({ ok: true, value: ["Ada"] });
    expect(world.calls.map((c) => `${c.server}.${c.tool}`)).toEqual(["memory.create_entities", "memory.read_graph"]);
  });

  it("a classic round reaches the same server", async () => {
    const answers = await world.handlers.callTools([{ toolCallId: "c1", toolName: "memory__search_nodes", input: { query: "Ada" } }]);
    expect(answers[0]).toMatchObject({ state: "output-available", output: { entities: [{ name: "Ada" }] } });
  });

  it("a command that does not start fails with a clear error", async () => {
    await expect(
      openToolWorld(
        [
          {
            id: "x",
            name: "broken",
            transport: "stdio",
            command: process.execPath,
            args: ["-e", "console.error('no such thing'); process.exit(3)"],
            headers: {},
            enabled: true,
          },
        ],
        {
          baseUrl: "http://127.0.0.1",
        },
      ),
    ).rejects.toThrow(/broken: could not start .*no such thing/s);
  });
});
