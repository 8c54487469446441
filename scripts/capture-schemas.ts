/**
 * Captures the real `tools/list` of the reference MCP servers into tests/fixtures/schemas/,
 * the corpus the code-mode generator's exact-text tests run on.
 *
 *   npx tsx scripts/capture-schemas.ts
 *
 * With `--catalog [dir]`, captures the large catalog instead (evals/catalog/):
 * public MCP servers at pinned versions, installed into a scratch folder (`dir`, or a temporary
 * one; npm's registry is the only network it needs), each started over stdio with placeholder
 * credentials (listing tools needs none) and its `tools/list` written with the package and
 * version it came from. Code mode is measured on it where catalogs are large (docs/evals.md).
 *
 * Each server is spawned over stdio with the SDK's Client, exactly as a host would. The
 * output is a tools/list result (`{ "tools": [ … ] }`) per server, pretty-printed so a
 * re-capture after a server upgrade shows up as a readable diff.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import { messageOf } from "../lib/text/error-message";

const require = createRequire(import.meta.url);
const outDir = path.join(import.meta.dirname, "..", "tests", "fixtures", "schemas");
/** The large catalog lives beside the eval suites that use it. */
const catalogDir = path.join(import.meta.dirname, "..", "evals", "catalog");

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

/** A server of the large catalog: a public package at a pinned version, and what it needs to start. */
interface CatalogTarget extends Target {
  version: string;
  /** The bin to run when the package has several. */
  bin?: string;
}

/**
 * Left out because they will not list their tools without a live service: server-redis (a Redis
 * at start), Supabase (fetches at start), Stripe (no answer without its API), Heroku (its CLI).
 */
/** Placeholder credentials: the servers read them at start-up, none of them is used to list tools. */
const PLACEHOLDER = "placeholder-not-a-credential";

const catalogTargets: CatalogTarget[] = [
  {
    name: "github",
    pkg: "@modelcontextprotocol/server-github",
    version: "2025.4.8",
    args: () => [],
    env: () => ({ GITHUB_PERSONAL_ACCESS_TOKEN: PLACEHOLDER }),
  },
  {
    name: "gitlab",
    pkg: "@modelcontextprotocol/server-gitlab",
    version: "2025.4.25",
    args: () => [],
    env: () => ({ GITLAB_PERSONAL_ACCESS_TOKEN: PLACEHOLDER }),
  },
  {
    name: "slack",
    pkg: "@modelcontextprotocol/server-slack",
    version: "2025.4.25",
    args: () => [],
    env: () => ({ SLACK_BOT_TOKEN: PLACEHOLDER, SLACK_TEAM_ID: "T00000000" }),
  },
  { name: "notion", pkg: "@notionhq/notion-mcp-server", version: "2.5.2", args: () => [], env: () => ({ NOTION_TOKEN: PLACEHOLDER }) },
  { name: "playwright", pkg: "@playwright/mcp", version: "0.0.83", args: () => ["--headless"] },
  { name: "chrome-devtools", pkg: "chrome-devtools-mcp", version: "1.11.0", args: () => [] },
  { name: "kubernetes", pkg: "mcp-server-kubernetes", version: "4.1.7", args: () => [] },
  { name: "desktop-commander", pkg: "@wonderwhy-er/desktop-commander", version: "0.2.52", args: () => [] },
  { name: "puppeteer", pkg: "@modelcontextprotocol/server-puppeteer", version: "2025.5.12", args: () => [] },
  { name: "brave-search", pkg: "@modelcontextprotocol/server-brave-search", version: "0.6.2", args: () => [], env: () => ({ BRAVE_API_KEY: PLACEHOLDER }) },
  { name: "google-maps", pkg: "@modelcontextprotocol/server-google-maps", version: "0.6.2", args: () => [], env: () => ({ GOOGLE_MAPS_API_KEY: PLACEHOLDER }) },
  { name: "firecrawl", pkg: "firecrawl-mcp", version: "3.26.0", args: () => [], env: () => ({ FIRECRAWL_API_KEY: PLACEHOLDER }) },
  { name: "context7", pkg: "@upstash/context7-mcp", version: "4.1.1", args: () => [] },
  { name: "tavily", pkg: "tavily-mcp", version: "0.2.22", args: () => [], env: () => ({ TAVILY_API_KEY: PLACEHOLDER }) },
  { name: "exa", pkg: "exa-mcp-server", version: "3.4.1", args: () => [], env: () => ({ EXA_API_KEY: PLACEHOLDER }) },
  { name: "mongodb", pkg: "mongodb-mcp-server", version: "3.0.4", args: () => [] },
  { name: "circleci", pkg: "@circleci/mcp-server-circleci", version: "0.20.0", args: () => [], env: () => ({ CIRCLECI_TOKEN: PLACEHOLDER }) },
  { name: "figma", pkg: "figma-developer-mcp", version: "0.13.2", args: () => ["--stdio"], env: () => ({ FIGMA_API_KEY: PLACEHOLDER }) },
  { name: "hubspot", pkg: "@hubspot/mcp-server", version: "0.4.0", args: () => [], env: () => ({ PRIVATE_APP_ACCESS_TOKEN: PLACEHOLDER }) },
];

/**
 * Resolves a package's bin script without relying on node_modules/.bin being present. `from` is a
 * node_modules folder (the large catalog's) or, by default, this repository's.
 */
function binOf(pkg: string, from?: string): string {
  // Some packages' `exports` hide package.json from require.resolve: read it from the folder.
  const manifestPath = from ? path.join(from, pkg, "package.json") : require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin: string | Record<string, string> };
  const rel = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin)[0];
  if (!rel) throw new Error(`${pkg} has no bin`);
  return path.join(path.dirname(manifestPath), rel);
}

async function capture(target: Target, scratch: string, from?: string): Promise<unknown> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binOf(target.pkg, from), ...target.args(scratch)],
    env: { ...getDefaultEnvironment(), ...target.env?.(scratch) },
    stderr: "ignore",
  });
  // No client capabilities: server-everything registers extra tools (sampling, elicitation,
  // roots) only for clients that advertise them, and the playground advertises none.
  // 2025-11-25 (`initialize`): the SDK would learn a stdio server's era by starting a second copy.
  const client = new Client({ name: "capture-schemas", version: "1.0.0" }, { versionNegotiation: { mode: "legacy" } });
  await client.connect(transport);
  try {
    const result = await client.listTools();
    return { tools: result.tools };
  } finally {
    await client.close();
  }
}

/** Installs the large catalog's packages at their versions into `prefix` (scripts off: no browser downloads). */
function installCatalog(prefix: string): void {
  const specs = catalogTargets.map((t) => `${t.pkg}@${t.version}`);
  const result = spawnSync("npm", ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--ignore-scripts", "--no-save", ...specs], { stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm install failed (${result.status})`);
}

async function captureCatalog(prefix: string): Promise<void> {
  const dir = catalogDir;
  await mkdir(dir, { recursive: true });
  const from = path.join(prefix, "node_modules");
  let total = 0;
  for (const target of catalogTargets) {
    const scratch = await mkdtemp(path.join(tmpdir(), `capture-${target.name}-`));
    try {
      const listed = (await withTimeout(capture(target, scratch, from), 60_000)) as { tools: unknown[] };
      const file = path.join(dir, `${target.name}.json`);
      await writeFile(file, JSON.stringify({ server: { package: target.pkg, version: target.version }, tools: listed.tools }, null, 2) + "\n");
      total += listed.tools.length;
      console.log(`${target.name}: ${listed.tools.length} tools → ${path.relative(process.cwd(), file)}`);
    } catch (error) {
      console.error(`${target.name}: not captured (${messageOf(error)})`);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
  console.log(`${total} tools in all`);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no tools/list within ${ms} ms`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error instanceof Error ? error : new Error(String(error)))),
    );
  });
}

async function main(): Promise<void> {
  const at = process.argv.indexOf("--catalog");
  if (at >= 0) {
    const given = process.argv[at + 1];
    const prefix = given ?? (await mkdtemp(path.join(tmpdir(), "catalog-servers-")));
    if (!given) installCatalog(prefix);
    await captureCatalog(prefix);
    return;
  }
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
