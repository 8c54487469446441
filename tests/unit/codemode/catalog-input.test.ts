/** Reading a catalog file's JSON, and the `npm run types` command line around it. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCatalog } from "../../../lib/codemode/catalog-input";

const tool = { name: "t", inputSchema: { type: "object" } };

describe("parseCatalog", () => {
  it("reads a tools/list result, bare or in a JSON-RPC response", () => {
    expect(parseCatalog({ tools: [tool], nextCursor: "x" }, "srv")).toEqual({ ok: true, servers: [{ name: "srv", tools: [tool] }] });
    expect(parseCatalog({ jsonrpc: "2.0", id: 1, result: { tools: [tool] } }, "srv")).toEqual({ ok: true, servers: [{ name: "srv", tools: [tool] }] });
  });

  it("reads a map of server name to tools", () => {
    expect(parseCatalog({ a: [tool], b: [] }, "srv")).toEqual({
      ok: true,
      servers: [
        { name: "a", tools: [tool] },
        { name: "b", tools: [] },
      ],
    });
  });

  it.each([
    [[], "expected a JSON object: a tools/list result or a map of server name to tools"],
    [null, "expected a JSON object: a tools/list result or a map of server name to tools"],
    [{}, 'the object is empty: expected { "tools": [ … ] } or { "server": [ … ] }'],
    [{ a: {} }, '"a" is not an array of tools: expected { "tools": [ … ] } or { "server": [ … ] }'],
    [{ tools: [1] }, "tools[0] is not an object"],
    [{ tools: [{ inputSchema: {} }] }, 'tools[0] has no string "name"'],
    [{ a: [tool, { name: "x" }] }, '"a"[1] ("x") has no object "inputSchema"'],
    [{ tools: [{ ...tool, outputSchema: 3 }] }, 'tools[0] ("t") has an "outputSchema" that is not an object'],
    [{ tools: [{ ...tool, description: 3 }] }, 'tools[0] ("t") has a "description" that is not a string'],
  ])("refuses %j", (json, error) => {
    expect(parseCatalog(json, "srv")).toEqual({ ok: false, error });
  });
});

describe("npm run types", () => {
  const root = path.join(import.meta.dirname, "..", "..", "..");
  const run = (...args: string[]) => spawnSync(process.execPath, ["--import", "tsx", "scripts/types.ts", ...args], { cwd: root, encoding: "utf8" });
  const dir = mkdtempSync(path.join(tmpdir(), "types-cli-"));

  it("prints declarations, token counts and lint findings for a tools/list file", () => {
    const result = run("tests/fixtures/schemas/sequential-thinking.json", "--tokens", "--lint");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^declare namespace sequential_thinking\{\n\/\*\* A detailed tool/);
    expect(result.stdout).toMatch(/\n\/\/ Tokens \(estimate, o200k_base\)\n\/\/ sequential_thinking: \d+ \(shared types 0\)\n\/\/ {3}sequentialthinking: \d+ /);
    expect(result.stdout).toMatch(/\n\/\/ system prompt: \d+\n/);
    expect(result.stdout).toContain("\n// Lint: 1 finding\n// info strict-additional-properties sequential-thinking/sequentialthinking:");
  });

  it("prints collisions for a server map", () => {
    const file = path.join(dir, "map.json");
    writeFileSync(
      file,
      JSON.stringify({
        s: [
          { ...tool, name: "a-b" },
          { ...tool, name: "a.b" },
        ],
      }),
    );
    const result = run(file);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      'declare namespace s{\n/** @returns No output schema: inspect the value before relying on its shape. */\nfunction a_b():Promise<unknown>;\n/** @returns No output schema: inspect the value before relying on its shape. */\nfunction a_b_2():Promise<unknown>;\n}\n// collision in server "s": "a-b" → a_b, "a.b" → a_b_2\n',
    );
  });

  it("exits 2 with a message on stderr for bad input", () => {
    const notJson = path.join(dir, "bad.json");
    writeFileSync(notJson, "{ nope");
    const wrongShape = path.join(dir, "shape.json");
    writeFileSync(wrongShape, "[1, 2]");
    for (const [args, message] of [
      [[notJson], "is not JSON"],
      [[wrongShape], "expected a JSON object"],
      [[path.join(dir, "missing.json")], "cannot read"],
      [[], "no file given"],
      [[notJson, "--bogus"], "unknown option --bogus"],
    ] as const) {
      const result = run(...args);
      expect(result.status).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(message);
    }
  });
});
