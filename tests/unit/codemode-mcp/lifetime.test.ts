/**
 * The code-mode MCP server ends with its agent (issue: processes left behind by Claude Desktop,
 * Cursor, Claude Code): whether the client says goodbye, only closes our stdin, or sends a
 * signal, the command and every process it started are gone within 2 s (checked by walking the
 * process table, not by trusting an exit code). Agents start it directly with node, or through
 * `npx` or `npm exec`, whose own process stands between the agent and the command: all three.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startDemoHost } from "@/lib/demo-servers/node/demo-host";
import { BIN, newClient, writeConfig } from "./fixtures";
import { descendants, goneWithin } from "../../fixtures/processes";

let demo: Awaited<ReturnType<typeof startDemoHost>>;
let config: string;
beforeAll(async () => {
  demo = await startDemoHost();
  config = writeConfig((name) => demo.urlFor(name));
});
afterAll(async () => {
  await demo?.close();
});

/** Starts the command with pipes and waits until it serves (its children are running then). */
async function startCommand(): Promise<{ child: ChildProcess; tree: number[] }> {
  const child = spawn(process.execPath, [BIN, "mcp", "--config", config], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes("serving")) resolve();
    });
    child.once("exit", () => reject(new Error(`exited before serving: ${stderr}`)));
  });
  child.stdout?.resume();
  const tree = descendants(child.pid!);
  expect(tree.length).toBeGreaterThan(0); // the memory server, at least
  return { child, tree };
}

describe("the code-mode server's lifetime", () => {
  it("ends, with the servers it started, when an SDK client closes", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "--config", config], stderr: "pipe" });
    const client = newClient("lifetime");
    await client.connect(transport);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("execute_code");
    const pid = transport.pid!;
    const tree = descendants(pid);
    expect(tree.length).toBeGreaterThan(0);
    await client.close();
    expect(await goneWithin([pid, ...tree], 2_000)).toEqual([]);
  }, 30_000);

  it.each([
    ["npx", ["--no-install", "code-mode-playground"]],
    ["npm", ["exec", "--no", "--", "code-mode-playground"]],
  ] as const)(
    "started through %s as an agent's config does, it ends with every process below it when the SDK client closes",
    async (wrapper, args) => {
      // A folder whose node_modules/.bin holds the command, as after `npm i code-mode-playground`.
      const dir = mkdtempSync(path.join(tmpdir(), "cmp-wrapper-"));
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "agent-folder", private: true }));
      mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
      symlinkSync(BIN, path.join(dir, "node_modules", ".bin", "code-mode-playground"));
      // The wrapper from PATH, as an agent finds it; the node running the tests first on PATH, so it runs the command.
      const transport = new StdioClientTransport({
        command: wrapper,
        args: [...args, "mcp", "--config", config],
        cwd: dir,
        env: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ""}` },
        stderr: "pipe",
      });
      const client = newClient(`lifetime-${wrapper}`);
      await client.connect(transport);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("execute_code");
      const pid = transport.pid!;
      const tree = descendants(pid);
      // The wrapper, the command, and the memory server it started at least.
      expect(tree.length).toBeGreaterThan(1);
      await client.close();
      expect(await goneWithin([pid, ...tree], 2_000)).toEqual([]);
    },
    60_000,
  );

  it("ends when its stdin closes, without a word from the client", async () => {
    const { child, tree } = await startCommand();
    child.stdin?.end();
    expect(await goneWithin([child.pid!, ...tree], 2_000)).toEqual([]);
  }, 30_000);

  it.each(["SIGTERM", "SIGINT", "SIGHUP"] as const)(
    "ends on %s, with the servers it started",
    async (signal) => {
      const { child, tree } = await startCommand();
      child.kill(signal);
      expect(await goneWithin([child.pid!, ...tree], 2_000)).toEqual([]);
    },
    30_000,
  );
});
