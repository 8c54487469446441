/**
 * Skills in the code-mode MCP server as an agent meets them: the real command started with
 * `--skills DIR` by the SDK's stdio client, over the reference memory server and the lab and
 * store demo servers. Each skill is a tool of its own and `skills.<name>` inside programs.
 */
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import type { Skill } from "@/lib/skills/skill";
import { parseSkillsFile, skillsFileText, skillsToFolder } from "@/lib/skills/skill-file";
import { readSkillsPath } from "@/lib/skills/node/skills-path";
import { BIN, connectCommand, execute, newClient, textOf, writeConfig } from "./fixtures";

const AT = "2026-11-27T00:00:00.000Z";

const greet: Skill = {
  name: "greet",
  description: "Greets someone through the lab's echo.",
  inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"], additionalProperties: false },
  outputSchema: { type: "object", properties: { said: {} }, required: ["said"] },
  code: `const said = await lab.echo({ message: "hello " + who });\nreturn { said };`,
  destructive: false,
  tests: [],
  createdAt: AT,
  updatedAt: AT,
};

// Its recorded test calls store.place_order, which the store declares destructive.
const order: Skill = {
  ...greet,
  name: "reorder",
  description: "Orders a cart again.",
  inputSchema: { type: "object", properties: { cartId: { type: "string" } }, required: ["cartId"] },
  code: `return await store.place_order({ cartId, deliveryAddress: "Oranienstraße 25, 10999 Berlin", paymentMethod: "card" });`,
  tests: [
    {
      name: "once",
      input: { cartId: "c1" },
      calls: [{ namespace: "store", name: "place_order", server: "store", tool: "place_order", args: {}, outcome: { ok: true, value: {} } }],
      expected: { ok: true, value: {} },
    },
  ],
};

function writeFolder(skills: readonly Skill[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cmp-skills-"));
  for (const file of skillsToFolder(skills)) {
    mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    writeFileSync(path.join(dir, file.path), file.text);
  }
  return dir;
}

let demo: Awaited<ReturnType<typeof startDemoHost>>;
let client: Client;
let command: { stderr: () => string };
let config = "";

beforeAll(async () => {
  demo = await startDemoHost();
  config = writeConfig((name) => demo.urlFor(name), { destructive: { store: "refuse" } });
  client = newClient("skills-test-agent");
  command = await connectCommand(client, ["mcp", "--config", config, "--skills", writeFolder([greet, order])]);
}, 60_000);
afterAll(async () => {
  await client?.close();
  await demo?.close();
});

describe("skills in the code-mode MCP server", () => {
  it("offers each skill of the folder as a tool, with its schemas; one whose calls hit a destructive tool is marked so", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["execute_code", "search_tools", "greet", "reorder"]);
    expect(tools[2]).toMatchObject({
      description: greet.description,
      inputSchema: greet.inputSchema,
      outputSchema: greet.outputSchema,
      annotations: { destructiveHint: false },
    });
    expect(tools[3]?.annotations?.destructiveHint).toBe(true);
    expect(tools[0]?.description).toContain("declare namespace skills");
    expect(command.stderr()).toContain("and 2 skills (greet, reorder)");
  });

  it("an SDK client calls a skill: its program runs with the input as globals and returns its value", async () => {
    const result = (await client.callTool({ name: "greet", arguments: { who: "Ada" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ said: expect.objectContaining({}) as unknown });
    expect(textOf(result)).toContain("hello Ada");
  });

  it("refuses input that does not match the skill's schema, naming the fault", async () => {
    const result = (await client.callTool({ name: "greet", arguments: { who: 7 } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("input error: Invalid input: arguments.who must be string");
  });

  it("programs call skills too; a skill's destructive call follows the server's policy", async () => {
    const result = await execute(client, `return await skills.greet({ who: "Grace" });`);
    expect(textOf(result)).toContain("hello Grace");
    expect(result.structuredContent).toMatchObject({ calls: { tools: { "lab.echo": 1 } } });
    const refused = (await client.callTool({ name: "reorder", arguments: { cartId: "c1" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("store.place_order is destructive and was not called");
  });
});

describe("reading skills from disk", () => {
  it("reads a folder and a skills file; refuses a bad one with the path of the fault", async () => {
    const dir = writeFolder([greet]);
    expect((await readSkillsPath(dir)).map((s) => s.name)).toEqual(["greet"]);
    mkdirSync(path.join(dir, "greet", "tests"));
    writeFileSync(path.join(dir, "greet", "tests", "bad.json"), '{"name": "x"}');
    await expect(readSkillsPath(dir)).rejects.toThrow(/greet\/tests\/bad\.json: input: Invalid input/);
    await expect(readSkillsPath(path.join(dir, "nothing-here"))).rejects.toThrow(/^Cannot read skills at /);
    // A symlinked file is not followed: a folder cannot make the server read a file outside it.
    const linked = writeFolder([greet]);
    rmSync(path.join(linked, "greet", "code.js"));
    symlinkSync("/etc/hostname", path.join(linked, "greet", "code.js"));
    await expect(readSkillsPath(linked)).rejects.toThrow(/greet\/code\.js: missing/);
  });

  it("the command refuses to start on a bad skills folder, saying where the fault is", async () => {
    const dir = writeFolder([{ ...greet, name: "execute_code" }]);
    const failed = await promisify(execFile)(process.execPath, [BIN, "mcp", "--config", config, "--skills", dir], { timeout: 30_000 }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain(`${dir}: A skill may not be named execute_code`);
  });
});

describe("skills whose servers the config lacks", () => {
  it("the command refuses to start, naming the skill, its test, the call and the servers it has", async () => {
    const lost: Skill = {
      ...order,
      name: "weather_report",
      tests: [
        {
          ...order.tests[0]!,
          name: "sunny",
          calls: [{ ...order.tests[0]!.calls[0]!, namespace: "weather", name: "forecast", server: "weather", tool: "forecast" }],
        },
      ],
    };
    const dir = writeFolder([greet, lost]);
    const failed = await promisify(execFile)(process.execPath, [BIN, "mcp", "--config", config, "--skills", dir], { timeout: 30_000 }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain(
      `${dir}:\n  skill "weather_report" calls weather.forecast (test "sunny"), but the config has no server "weather" (it has memory, lab, store)`,
    );
  });
});

describe("code-mode-playground skills convert", () => {
  const cli = (...args: string[]) =>
    promisify(execFile)(process.execPath, [BIN, ...args], { timeout: 30_000 }).then(
      (r) => ({ code: 0, stderr: r.stderr }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? "" }),
    );

  it("turns a skills.json into a folder a review can read, and back", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cmp-convert-"));
    const json = path.join(dir, "skills.json");
    writeFileSync(json, skillsFileText([greet, order]));
    const folder = path.join(dir, "skills");
    expect(await cli("skills", "convert", json, folder)).toMatchObject({ code: 0, stderr: expect.stringContaining("wrote 2 skills (5 files)") as unknown });
    expect(readFileSync(path.join(folder, "greet", "code.js"), "utf8")).toBe(`${greet.code}\n`);
    const back = path.join(dir, "back.json");
    expect((await cli("skills", "convert", folder, back)).code).toBe(0);
    expect(parseSkillsFile(readFileSync(back, "utf8"))).toEqual({ ok: true, skills: [greet, order] });
    expect(await cli("skills", "convert", path.join(dir, "missing"), back)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Cannot read skills at") as unknown,
    });
  });
});
