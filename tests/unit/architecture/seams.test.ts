/**
 * The seams are enforced by lint (eslint.config.mjs; docs/ARCHITECTURE.md, "Seams"). These
 * probes cross each seam on purpose and must be refused, so a loosened rule fails here.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const probes: string[] = [];
/** The layers lint enforces, read from the config it runs. */
const { LAYERS } = (await import(pathToFileURL(path.join(root, "eslint.config.mjs")).href)) as { LAYERS: Record<string, number> };

async function lint(relative: string, code: string): Promise<string[]> {
  const file = path.join(root, relative);
  writeFileSync(file, code);
  probes.push(file);
  const [result] = await new ESLint({ cwd: root }).lintFiles([file]);
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

afterAll(() => {
  for (const file of probes) rmSync(file, { force: true });
});

describe("seams", () => {
  it("every lib/ domain has a layer, and layers are whole numbers", () => {
    const domains = readdirSync(path.join(root, "lib"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(domains.filter((domain) => !(domain in LAYERS))).toEqual([]);
    expect(Object.keys(LAYERS).filter((domain) => !domains.includes(domain))).toEqual([]);
    expect(Object.values(LAYERS).every((layer) => Number.isInteger(layer))).toBe(true);
  });

  it("a lower lib/ domain may not import a higher one", async () => {
    const messages = await lint("lib/text/seam-probe.ts", 'import type { ServerConfig } from "../mcp/types";\nexport type Probe = ServerConfig;\n');
    expect(messages.join()).toMatch(/lib\/text \(layer 0\) may not import lib\/mcp \(layer 4\)/);
  });

  it("a domain may not import one of its own layer either", async () => {
    const messages = await lint("lib/mcp/seam-probe.ts", 'import type { RunRecord } from "../timeline/run-record";\nexport type Probe = RunRecord;\n');
    expect(messages.join()).toMatch(/lib\/mcp \(layer 4\) may not import lib\/timeline/);
  });

  it("lib/ may not import React or components", async () => {
    const messages = await lint("lib/sandbox/seam-probe.ts", 'import { useState } from "react";\nexport const probe = useState;\n');
    expect(messages.join()).toMatch(/framework-free/);
  });

  it("components may not import a server module", async () => {
    const messages = await lint(
      "components/seam-probe.ts",
      'import { assertLocal } from "@/lib/mcp/stdio/server/stdio-bridge";\nexport const probe = assertLocal;\n',
    );
    expect(messages.join()).toMatch(/Browser code may not import server\/ or node\/ modules/);
  });

  it("pure code may not import a module tied to one place (browser, server, node, worker)", async () => {
    const browser = await lint(
      "lib/share/seam-probe.ts",
      'import { readShareFromLocation } from "./browser/location";\nexport const probe = readShareFromLocation;\n',
    );
    expect(browser.join()).toMatch(/Pure lib\/ code runs anywhere/);
    const node = await lint("lib/model/seam-probe.ts", 'import { runHeadlessAgent } from "./node/headless-agent";\nexport const probe = runHeadlessAgent;\n');
    expect(node.join()).toMatch(/Pure lib\/ code runs anywhere/);
  });

  it("browser code may not import server code, nor server code browser code", async () => {
    const browser = await lint(
      "lib/mcp/browser/seam-probe.ts",
      'import { handleProxyRequest } from "../server/proxy";\nexport const probe = handleProxyRequest;\n',
    );
    expect(browser.join()).toMatch(/Browser code may not import server\//);
    const server = await lint(
      "lib/share/server/seam-probe.ts",
      'import { createShareClient } from "../browser/api-client";\nexport const probe = createShareClient;\n',
    );
    expect(server.join()).toMatch(/Server code may not import browser\//);
  });

  it("the sandbox worker imports no page, server or Node module", async () => {
    const messages = await lint(
      "lib/sandbox/worker/seam-probe.ts",
      'import { createSandboxWorker } from "../browser/create-browser-worker";\nexport const probe = createSandboxWorker;\n',
    );
    expect(messages.join()).toMatch(/The sandbox worker may not import/);
  });

  it('every server/ module starts with import "server-only", at any depth', () => {
    const serverFiles = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return serverFiles(full);
        return path.basename(dir) === "server" && entry.name.endsWith(".ts") && !entry.name.startsWith("seam-probe") ? [full] : [];
      });
    const files = serverFiles(path.join(root, "lib"));
    expect(files).toContain(path.join(root, "lib", "mcp", "stdio", "server", "stdio-bridge.ts"));
    const missing = files.filter((f) => !/^import "server-only";$/m.test(readFileSync(f, "utf8"))).map((f) => path.relative(root, f));
    expect(missing).toEqual([]);
  });

  it("a nested server/ folder is a place too: pure code of its domain may not import it", async () => {
    const messages = await lint(
      "lib/mcp/stdio/seam-probe.ts",
      'import { startStdioSession } from "./server/stdio-bridge";\nexport const probe = startStdioSession;\n',
    );
    expect(messages.join()).toMatch(/Pure lib\/ code runs anywhere/);
  });

  it("the allowed directions pass", async () => {
    expect(await lint("lib/mcp/seam-probe-ok.ts", 'import { canonicalJson } from "../text/canonical-json";\nexport const probe = canonicalJson;\n')).toEqual(
      [],
    );
  });
}, 120_000);
