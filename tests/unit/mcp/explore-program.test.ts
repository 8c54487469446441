/** "Explore this server" against real servers: the reference memory server over stdio, and the sample arguments. */
import { createRequire } from "node:module";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exploreProgram } from "@/lib/mcp/explore-program";
import { sampleArguments } from "@/lib/forms/sample-arguments";
import { openToolWorld, type OpenedToolWorld } from "@/lib/model/node/headless-agent";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";

const require = createRequire(import.meta.url);
const pkg = require.resolve("@modelcontextprotocol/server-memory/package.json");
const bin = path.join(path.dirname(pkg), (require(pkg) as { bin: Record<string, string> }).bin["mcp-server-memory"] ?? "");

describe("sample arguments", () => {
  it("fills required fields only, inside bounds, with defaults, enums and formats", () => {
    expect(
      sampleArguments({
        type: "object",
        required: ["kg", "country", "when", "tags", "name", "n"],
        properties: {
          kg: { type: "number", minimum: 0.5, maximum: 30 },
          n: { type: "integer", exclusiveMinimum: 3 },
          country: { type: "string", enum: ["DE", "FR"] },
          when: { type: "string", format: "date" },
          tags: { type: "array", items: { type: "string" }, minItems: 2 },
          name: { type: "string", minLength: 10 },
          optional: { type: "string" },
          size: { type: "string", default: "M" },
        },
      }),
    ).toEqual({ kg: 0.5, n: 4, country: "DE", when: "2026-01-01", tags: ["example", "example"], name: "Example example" });
    expect(sampleArguments(undefined)).toEqual({});
  });
});

describe("explore this server", () => {
  let world: OpenedToolWorld;
  let demo: Awaited<ReturnType<typeof startDemoHost>>;
  beforeAll(async () => {
    demo = await startDemoHost();
    const file = path.join(mkdtempSync(path.join(tmpdir(), "cmp-explore-")), "memory.jsonl");
    world = await openToolWorld(
      [
        {
          id: "memory",
          name: "memory",
          transport: "stdio",
          command: process.execPath,
          args: [bin],
          env: { MEMORY_FILE_PATH: file },
          headers: {},
          enabled: true,
        },
        { id: "shipping", name: "shipping", transport: "streamable-http", url: demo.urlFor("shipping"), headers: {}, enabled: true },
      ],
      { baseUrl: demo.url },
    );
  }, 30_000);
  afterAll(async () => {
    await world?.close();
    await demo?.close();
  });

  it("the memory server's program runs ok with no model: read-only tools answered, the others listed", async () => {
    const code = exploreProgram(world.catalog.servers, 0) ?? "";
    expect(code).toContain("memory.read_graph({})");
    const result = await world.handlers.runCode(code, "explore");
    expect(result.ok).toBe(true);
    const value = (result.ok ? result.value : {}) as { answers: Record<string, unknown>; notCalled: string[] };
    expect(value.answers.read_graph).toEqual({ entities: [], relations: [] });
    expect(value.notCalled.some((t) => t.startsWith("memory.create_entities"))).toBe(true);
    // Nothing that writes was called.
    expect(world.calls.every((c) => !/create|delete|add/.test(c.tool))).toBe(true);
  });

  it("a demo server's read-only tools get arguments their schemas accept", async () => {
    const code = exploreProgram(world.catalog.servers, 1) ?? "";
    const result = await world.handlers.runCode(code, "explore-shipping");
    expect(result.ok).toBe(true);
    const value = (result.ok ? result.value : {}) as { answers: Record<string, { error?: string }> };
    expect(Object.keys(value.answers).length).toBeGreaterThan(0);
    for (const [name, answer] of Object.entries(value.answers)) expect(answer?.error, name).toBeUndefined();
  });

  it("is undefined for a server that is not there", () => {
    expect(exploreProgram([], 0)).toBeUndefined();
  });
});
