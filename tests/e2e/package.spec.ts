/**
 * The installable package (docs/packaging.md) as a person gets it: `npm run package` packs the
 * suite's build, the tarball goes into an empty folder with nothing else installed, and from that
 * folder the command serves the playground (Chromium loads it: sandbox ready, a program runs
 * against the demo servers), serves an mcp.json as a code-mode MCP server to an SDK client (its
 * process tree gone when the client closes), and runs the agent loop headless.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { skillsFileText } from "../../lib/skills/skill-file";
import { expect, test } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { freePort } from "../fixtures/free-port";
import { descendants, goneWithin } from "../fixtures/processes";

const run = promisify(execFile);
const root = process.cwd();
let folder = "";
let installed = "";
let command = "";
let tarball = "";

test.describe("the package, installed into an empty folder", () => {
  test.describe.configure({ mode: "serial", timeout: 180_000 });

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    const out = mkdtempSync(path.join(tmpdir(), "cmp-pack-"));
    // The suite's webServer built the app already.
    await run(process.execPath, ["scripts/package.mjs", "--no-build", "--out", out], { maxBuffer: 16 * 1024 * 1024 });
    const [file] = readdirSync(out).filter((name) => name.endsWith(".tgz"));
    tarball = path.join(out, file ?? "");
    folder = mkdtempSync(path.join(tmpdir(), "cmp-installed-"));
    // Its own npm cache: nothing but the tarball to install from, and no registry to ask.
    // --prefix: this folder, even if a folder above it held a package.json or node_modules.
    await run("npm", ["install", "--prefix", folder, "--no-audit", "--no-fund", "--offline", "--cache", path.join(folder, ".npm-cache"), tarball], {
      cwd: folder,
      maxBuffer: 16 * 1024 * 1024,
    });
    installed = path.join(folder, "node_modules", "code-mode-playground");
    command = path.join(folder, "node_modules", ".bin", "code-mode-playground");
  });

  test("installs nothing else and ships no test, server source map, .env, key or path of the build machine", async () => {
    expect(readdirSync(path.join(folder, "node_modules")).filter((name) => !name.startsWith("."))).toEqual(["code-mode-playground"]);
    const manifest = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.bin).toEqual({ "code-mode-playground": "bin/code-mode-playground.mjs" });
    const { stdout: listing } = await run("tar", ["-tzf", tarball], { maxBuffer: 64 * 1024 * 1024 });
    const files = listing.split("\n").filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => /^package\/(tests|lib|components|scripts\/[^/]+\.ts)\//.test(file) || file.includes("/tests/fixtures/"))).toEqual([]);
    expect(files.filter((file) => file.endsWith(".map") && !file.startsWith("package/app/.next/static/"))).toEqual([]);
    expect(files.filter((file) => /(^|\/)\.env/.test(file))).toEqual([]);
    const leaks: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (statSync(full).size > 0) {
          const text = readFileSync(full).toString("latin1");
          if (text.includes(root)) leaks.push(`${path.relative(installed, full)}: ${root}`);
          if (/sk-(?:ant-|proj-)?[A-Za-z0-9_-]{32,}|-----BEGIN [A-Z ]*PRIVATE KEY-----\s*[A-Za-z0-9+/]{40}/.test(text))
            leaks.push(`${path.relative(installed, full)}: a key`);
        }
      }
    };
    walk(installed);
    expect(leaks).toEqual([]);
  });

  test("starts the playground from there: the printed link opens it, the sandbox is ready, a program runs against the demo servers, and so does an agent's over HTTP", async ({
    page,
  }) => {
    const port = await freePort();
    // The code-mode endpoint serves the installed playground's own lab server.
    const codeModeConfig = path.join(folder, "codemode.json");
    writeFileSync(codeModeConfig, JSON.stringify({ mcpServers: { lab: { type: "http", url: `http://127.0.0.1:${port}/api/demo-mcp/lab` } } }));
    const codeModeToken = `package-${"0123456789abcdef".repeat(3)}`;
    const child = spawn(command, ["--port", String(port)], {
      cwd: folder,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CMP_CODEMODE_CONFIG: codeModeConfig, CMP_CODEMODE_TOKEN: codeModeToken },
    });
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    try {
      const link = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /is ready: (http:\/\/\S+#cmp-token=\S+)/.exec(out);
          if (match?.[1]) resolve(match[1]);
        });
        child.once("exit", (code) => reject(new Error(`the installed command exited (${code}): ${out}${errors}`)));
      });
      expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#cmp-token=[A-Za-z0-9_-]{43}$`));
      await page.goto(link);
      await expect(page.getByTestId("sandbox-state")).toHaveText("sandbox ready", { timeout: 30_000 });
      // As a person does: the code pasted into the editor (it waits until the editor shows it), then Ctrl+Enter.
      const playground = new PlaygroundPage(page);
      await playground.setCode(`const echoed = await lab.echo({ message: "from the package" });\nreturn echoed.message;`);
      await playground.runWithShortcut();
      await expect(playground.status).toHaveText("ok", { timeout: 30_000 });
      expect(await playground.valueJson()).toBe("from the package");
      // The production server's own sandbox threads (the code-mode MCP endpoint).
      const agent = new Client({ name: "package-http-agent", version: "1.0.0" });
      await agent.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/api/codemode/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${codeModeToken}` } },
        }),
      );
      try {
        const result = (await agent.callTool({
          name: "execute_code",
          arguments: { code: `return (await lab.echo({ message: "over HTTP" })).message;` },
        })) as CallToolResult;
        expect(result.structuredContent).toMatchObject({ value: "over HTTP" });
      } finally {
        await agent.close();
      }
      expect(errors).not.toMatch(/Error|missing/);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  });

  test("serves an mcp.json as a code-mode MCP server from there, and leaves no process behind", async () => {
    const require = createRequire(import.meta.url);
    const memoryManifest = require.resolve("@modelcontextprotocol/server-memory/package.json");
    const memory = path.join(path.dirname(memoryManifest), (require(memoryManifest) as { bin: Record<string, string> }).bin["mcp-server-memory"] ?? "");
    const config = path.join(folder, "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          lab: { type: "http", url: `http://127.0.0.1:${process.env.E2E_PORT}/api/demo-mcp/lab` },
          memory: { command: process.execPath, args: [memory], env: { MEMORY_FILE_PATH: path.join(folder, "memory.jsonl") } },
        },
      }),
    );
    const transport = new StdioClientTransport({ command, args: ["mcp", "--config", config], cwd: folder, stderr: "pipe" });
    const client = new Client({ name: "package-agent", version: "1.0.0" });
    await client.connect(transport);
    const pid = transport.pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    const tree = [pid, ...descendants(pid)];
    // The memory server runs below it.
    expect(tree.length).toBeGreaterThan(1);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["execute_code", "search_tools"]));
      const result = (await client.callTool({
        name: "execute_code",
        arguments: {
          code: `const [echoed, graph] = await Promise.all([lab.echo({ message: "packaged" }), memory.read_graph({})]);\nreturn { echo: echoed.message, entities: graph.entities.length };`,
        },
      })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toMatchObject({ value: { echo: "packaged", entities: 0 } });
    } finally {
      await client.close();
    }
    expect(await goneWithin(tree, 5_000)).toEqual([]);
  });

  test("runs from npx with the tarball as its package, and from a global install of it", async () => {
    const cache = mkdtempSync(path.join(tmpdir(), "cmp-npx-cache-"));
    const { stdout: help } = await run("npx", ["--yes", "--offline", "--cache", cache, "-p", tarball, "code-mode-playground", "--help"], { cwd: folder });
    expect(help).toContain("code-mode-playground mcp --config <mcp.json>");
    const prefix = mkdtempSync(path.join(tmpdir(), "cmp-global-"));
    await run("npm", ["install", "-g", "--prefix", prefix, "--offline", "--cache", cache, "--no-audit", "--no-fund", tarball], { cwd: folder });
    const converted = path.join(prefix, "skills");
    const skills = path.join(folder, "skills.json");
    const at = "2026-11-28T00:00:00.000Z";
    writeFileSync(
      skills,
      skillsFileText([
        {
          name: "greet",
          description: "Greets someone through the lab's echo.",
          inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
          code: `return await lab.echo({ message: "hello " + who });`,
          destructive: false,
          tests: [],
          createdAt: at,
          updatedAt: at,
        },
      ]),
    );
    const { stderr } = await run(path.join(prefix, "bin", "code-mode-playground"), ["skills", "convert", skills, converted], { cwd: tmpdir() });
    expect(stderr).toContain("wrote 1 skill");
    expect(readdirSync(converted)).toEqual(["greet"]);
  });

  test("runs the agent loop and an eval suite headless from there, with the offline demo model and the built-in demo servers", async () => {
    const { stdout, stderr } = await run(command, ["agent", "Which carrier is cheapest to ship 2 kg from DE to US within 5 days?"], {
      cwd: folder,
      maxBuffer: 16 * 1024 * 1024,
    });
    // The answer on stdout, the loop's progress on stderr.
    expect(stdout).toContain("SwiftAir Express");
    expect(stderr).toContain("program demo_call_1: ok");
    expect(stderr).toMatch(/stop: done/);
    // The package's own example suite, in code mode and classic mode.
    const suite = await run(command, ["eval", path.join(installed, "evals", "demo.json")], { cwd: folder, maxBuffer: 16 * 1024 * 1024 });
    expect(suite.stdout).toMatch(/fan-out\s+3\s+3\/3/);
  });
});
