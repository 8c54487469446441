/**
 * The seams are enforced by lint (eslint.config.mjs; docs/ARCHITECTURE.md, "Seams"). These
 * probes cross each seam on purpose and must be refused, so a loosened rule fails here.
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const probes: string[] = [];

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
  it("a lower lib/ domain may not import a higher one", async () => {
    const messages = await lint("lib/text/seam-probe.ts", 'import type { ServerConfig } from "../mcp/types";\nexport type Probe = ServerConfig;\n');
    expect(messages.join()).toMatch(/lib\/text \(layer 0\) may not import lib\/mcp \(layer 3\)/);
  });

  it("a domain may not import one of its own layer either", async () => {
    const messages = await lint("lib/mcp/seam-probe.ts", 'import type { RunRecord } from "../timeline/run-record";\nexport type Probe = RunRecord;\n');
    expect(messages.join()).toMatch(/lib\/mcp \(layer 3\) may not import lib\/timeline/);
  });

  it("lib/ may not import React or components", async () => {
    const messages = await lint("lib/sandbox/seam-probe.ts", 'import { useState } from "react";\nexport const probe = useState;\n');
    expect(messages.join()).toMatch(/framework-free/);
  });

  it("components may not import a server module", async () => {
    const messages = await lint("components/seam-probe.ts", 'import { assertLocal } from "@/lib/mcp/stdio-bridge";\nexport const probe = assertLocal;\n');
    expect(messages.join()).toMatch(/runs on the server only/);
  });

  it("the allowed directions pass", async () => {
    expect(await lint("lib/mcp/seam-probe-ok.ts", 'import { canonicalJson } from "../text/canonical-json";\nexport const probe = canonicalJson;\n')).toEqual(
      [],
    );
  });
}, 120_000);
