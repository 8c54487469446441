/**
 * Benchmarks of the typed tool API: what the declarations cost in tokens against
 * `@cloudflare/codemode`'s generator and against classic tool calling's JSON tool list,
 * on the real schemas in tests/fixtures/schemas; and how fast declarations and tool search
 * are at 1 000 tools. Prints figures only; targets are in the notes, never asserted.
 *
 *   npx tsx scripts/bench/codemode.ts
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generateDeclarations } from "../../lib/codemode/declarations";
import { countTokens } from "../../lib/codemode/tokens";
import { createToolSearch } from "../../lib/codemode/tool-search";
import type { ServerTools, ToolDefinition } from "../../lib/codemode/types";
import { syntheticCatalog, syntheticQueries } from "../../tests/fixtures/schemas/synthetic-catalog";
import { largeCatalog } from "../../tests/fixtures/schemas/large-catalog";
import { createToolCatalog } from "../../lib/codemode/tool-catalog";
import { choosePromptForm } from "../../lib/codemode/prompt-form";
import { median, printRows, type BenchRow } from "./rows";

const root = path.join(import.meta.dirname, "..", "..");
const CORPUS = ["everything", "filesystem", "memory", "sequential-thinking"];

function corpus(): ServerTools[] {
  return CORPUS.map((name) => {
    const file = path.join(root, "tests", "fixtures", "schemas", `${name}.json`);
    const json = JSON.parse(readFileSync(file, "utf8")) as { tools: ToolDefinition[] };
    return { name, tools: json.tools };
  });
}

type CloudflareGenerate = (tools: Record<string, { description?: string; inputSchema: unknown; outputSchema?: unknown }>) => string;

/**
 * `@cloudflare/codemode`'s public entry imports `cloudflare:workers`, which Node cannot load
 * (ERR_UNSUPPORTED_ESM_URL_SCHEME). Its JSON Schema generator, `generateTypesFromJsonSchema`,
 * lives in a chunk that imports only acorn, so that chunk is loaded by path. The chunk name
 * carries a build hash and its exports are minified: `t` is the generator (checked below by
 * looking for its `declare const codemode` output).
 */
async function loadCloudflare(): Promise<CloudflareGenerate | string> {
  const dist = path.join(root, "node_modules", "@cloudflare", "codemode", "dist");
  let chunk: string | undefined;
  try {
    chunk = readdirSync(dist).find((f) => /^json-schema-types-.*\.js$/.test(f));
  } catch {
    return "@cloudflare/codemode is not installed";
  }
  if (!chunk) return "its json-schema-types chunk was not found (package layout changed)";
  const mod = (await import(pathToFileURL(path.join(dist, chunk)).href)) as Record<string, unknown>;
  const generate = mod.t;
  if (typeof generate !== "function") return "the chunk no longer exports the generator as `t`";
  const probe = (generate as CloudflareGenerate)({ probe: { inputSchema: { type: "object" } } });
  return probe.includes("declare const codemode") ? (generate as CloudflareGenerate) : "`t` is not generateTypesFromJsonSchema any more";
}

/** What a model receives in classic tool calling (OpenAI's `tools` array), compact JSON. */
function classicToolJson(servers: readonly ServerTools[]): string {
  const tools = servers.flatMap((s) =>
    s.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description ?? "", parameters: t.inputSchema } })),
  );
  return JSON.stringify(tools);
}

function time(run: () => void, samples: number): number {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Runs the code-mode benchmarks and returns their rows. */
export async function benchCodemode(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const servers = corpus();
  const toolCount = servers.reduce((n, s) => n + s.tools.length, 0);
  const ours = countTokens(generateDeclarations(servers).text);
  const corpusNote = `${servers.length} real servers, ${toolCount} tools; o200k_base estimate`;
  rows.push({ name: "declarations, real corpus (ours)", value: ours, unit: "tokens", note: corpusNote });

  const cloudflare = await loadCloudflare();
  if (typeof cloudflare === "string") {
    rows.push({ name: "@cloudflare/codemode generator, same corpus", unit: "tokens", note: `not measured: ${cloudflare}` });
  } else {
    let theirs = 0;
    for (const server of servers) {
      const tools = Object.fromEntries(
        server.tools.map((t) => [
          t.name,
          {
            ...(t.description !== undefined && { description: t.description }),
            inputSchema: t.inputSchema,
            ...(t.outputSchema && { outputSchema: t.outputSchema }),
          },
        ]),
      );
      const text = cloudflare(tools);
      theirs += countTokens(text);
      const mine = countTokens(generateDeclarations([server]).text);
      rows.push({ name: `  ${server.name}: ours ÷ cloudflare`, value: mine / countTokens(text), unit: "×", note: `${mine} vs ${countTokens(text)} tokens` });
    }
    rows.push({ name: "@cloudflare/codemode generator, same corpus", value: theirs, unit: "tokens", note: "generateTypesFromJsonSchema, one call per server" });
    rows.push({ name: "ours ÷ cloudflare", value: ours / theirs, unit: "×", note: "target ≤ 0.8" });
  }
  const json = countTokens(classicToolJson(servers));
  rows.push({ name: "classic tool calling JSON, same corpus", value: json, unit: "tokens", note: "OpenAI tools array: name, description, parameters" });
  rows.push({ name: "ours ÷ classic JSON", value: ours / json, unit: "×", note: "ours also carries output types; the JSON does not" });

  // The large catalog: real public servers' schemas (tests/fixtures/schemas/large-catalog.ts).
  const large = largeCatalog();
  const largeCatalogApi = createToolCatalog(large);
  const largeTools = large.reduce((n, s) => n + s.tools.length, 0);
  const largeNote = `${large.length} real servers, ${largeTools} tools`;
  const everyDeclaration = countTokens(largeCatalogApi.systemPrompt("declarations"));
  const searchForm = countTokens(largeCatalogApi.systemPrompt("search"));
  const classicEvery = countTokens(classicToolJson(large));
  const form = choosePromptForm(largeCatalogApi.declarations.text);
  rows.push({ name: "large catalog: code mode's prompt, every declaration", value: everyDeclaration, unit: "tokens", note: largeNote });
  rows.push({
    name: "large catalog: code mode's prompt, tool search",
    value: searchForm,
    unit: "tokens",
    note: `the form chosen at the default budget: ${form.mode}`,
  });
  rows.push({ name: "large catalog: classic tool calling, every tool as JSON", value: classicEvery, unit: "tokens", note: "sent with every request" });
  rows.push({
    name: "large catalog: classic ÷ code mode (tool search), per request",
    value: classicEvery / searchForm,
    unit: "×",
    note: `every declaration instead: ${(classicEvery / everyDeclaration).toFixed(2)}×; a search adds its results`,
  });

  const big = syntheticCatalog(1000);
  const cold = performance.now();
  generateDeclarations(big);
  rows.push({ name: "1 000 tools → declarations, first call", value: performance.now() - cold, unit: "ms", note: "cold: includes JIT warm-up" });
  for (let i = 0; i < 5; i++) generateDeclarations(big);
  rows.push({
    name: "1 000 tools → declarations",
    median: time(() => generateDeclarations(big), 30),
    unit: "ms",
    note: "10 servers, synthetic, warm; target ≤ 30 ms",
  });
  const declarations = generateDeclarations(big);
  rows.push({ name: "  their size", value: countTokens(declarations.text), unit: "tokens" });
  rows.push({ name: "search index build, 1 000 tools", median: time(() => createToolSearch(big, declarations), 15), unit: "ms", note: "MiniSearch" });
  const search = createToolSearch(big, declarations);
  const queries = syntheticQueries(100);
  rows.push({
    name: "100 searches (top 5, with declarations)",
    median: time(() => queries.forEach((q) => search.search(q, 5)), 15),
    unit: "ms",
    note: "whole batch",
  });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  printRows(await benchCodemode());
}
