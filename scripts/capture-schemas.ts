/**
 * Captures the real `tools/list` of the reference MCP servers into tests/fixtures/schemas/,
 * the corpus the code-mode generator's exact-text tests run on.
 *
 *   npx tsx scripts/capture-schemas.ts
 *
 * Each server is spawned over stdio with the SDK's Client, exactly as a host would. The
 * output is a tools/list result (`{ "tools": [ … ] }`) per server, pretty-printed so a
 * re-capture after a server upgrade shows up as a readable diff.
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";

const require = createRequire(import.meta.url);
const outDir = path.join(import.meta.dirname, "..", "tests", "fixtures", "schemas");

interface Target {
  /** Fixture file name, also the namespace the tests use. */
  name: string;
  pkg: string;
  args: (scratch: string) => string[];
  env?: (scratch: string) => Record<string, string>;
}

const targets: Target[] = [
  // server-everything picks its transport from argv[2]; stdio is the default, but say so.
  { name: "everything", pkg: "@modelcontextprotocol/server-everything", args: () => ["stdio"] },
  // server-memory writes its graph next to its own dist/ unless told otherwise: keep it in scratch.
  {
    name: "memory",
    pkg: "@modelcontextprotocol/server-memory",
    args: () => [],
    env: (scratch) => ({ MEMORY_FILE_PATH: path.join(scratch, "memory.jsonl") }),
  },
  // server-filesystem refuses to start without at least one allowed directory.
  { name: "filesystem", pkg: "@modelcontextprotocol/server-filesystem", args: (scratch) => [scratch] },
  { name: "sequential-thinking", pkg: "@modelcontextprotocol/server-sequential-thinking", args: () => [] },
];

/** Resolves a package's bin script without relying on node_modules/.bin being present. */
function binOf(pkg: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = require(manifestPath) as { bin: string | Record<string, string> };
  const rel = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin)[0];
  if (!rel) throw new Error(`${pkg} has no bin`);
  return path.join(path.dirname(manifestPath), rel);
}

async function capture(target: Target, scratch: string): Promise<unknown> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binOf(target.pkg), ...target.args(scratch)],
    env: { ...getDefaultEnvironment(), ...target.env?.(scratch) },
    stderr: "ignore",
  });
  // No client capabilities: server-everything registers extra tools (sampling, elicitation,
  // roots) only for clients that advertise them, and the playground advertises none.
  const client = new Client({ name: "capture-schemas", version: "1.0.0" });
  await client.connect(transport);
  try {
    const result = await client.listTools();
    return { tools: result.tools };
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  await mkdir(outDir, { recursive: true });
  for (const target of targets) {
    const scratch = await mkdtemp(path.join(tmpdir(), `capture-${target.name}-`));
    try {
      const listed = await capture(target, scratch);
      const file = path.join(outDir, `${target.name}.json`);
      await writeFile(file, JSON.stringify(listed, null, 2) + "\n");
      const count = (listed as { tools: unknown[] }).tools.length;
      console.log(`${target.name}: ${count} tools → ${path.relative(process.cwd(), file)}`);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
