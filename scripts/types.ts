/**
 * `npm run types -- <file.json> [--tokens] [--lint] [--server <name>]`
 *
 * Prints the code-mode declarations for a tool catalog: a tools/list result
 * (`{ "tools": [ … ] }`) or a map of server name to tools (`{ "server": [ … ] }`).
 * `--tokens` adds token estimates, `--lint` the schema findings, both as `//` comments so
 * stdout stays valid TypeScript. `--server` names the server of a bare tools/list result
 * (default: the file name). Exit 0 on success (findings included), 2 on bad usage or input.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseCatalog } from "../lib/codemode/catalog-input";
import { generateDeclarations } from "../lib/codemode/declarations";
import { lintTools } from "../lib/codemode/schema-lint";
import { buildSystemPrompt } from "../lib/codemode/system-prompt";
import { tokenReport, TOKEN_ENCODING } from "../lib/codemode/tokens";
import { messageOf } from "../lib/text/error-message";

const USAGE = "usage: npm run types -- <file.json> [--tokens] [--lint] [--server <name>]";

function fail(message: string): never {
  process.stderr.write(`types: ${message}\n`);
  process.exit(2);
}

interface Args {
  file: string;
  tokens: boolean;
  lint: boolean;
  server?: string;
}

function parseArgs(argv: readonly string[]): Args {
  let file: string | undefined;
  let server: string | undefined;
  let tokens = false;
  let lint = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--tokens") tokens = true;
    else if (arg === "--lint") lint = true;
    else if (arg === "--server") {
      server = argv[++i];
      if (server === undefined) fail(`--server needs a name\n${USAGE}`);
    } else if (arg === "--help" || arg === "-h") {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (arg.startsWith("-")) fail(`unknown option ${arg}\n${USAGE}`);
    else if (file === undefined) file = arg;
    else fail(`one file at a time (got ${file} and ${arg})\n${USAGE}`);
  }
  if (file === undefined) fail(`no file given\n${USAGE}`);
  return { file, tokens, lint, ...(server !== undefined && { server }) };
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  let raw: string;
  try {
    raw = readFileSync(args.file, "utf8");
  } catch (error) {
    fail(`cannot read ${args.file}: ${messageOf(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    fail(`${args.file} is not JSON: ${messageOf(error)}`);
  }
  const catalog = parseCatalog(json, args.server ?? path.basename(args.file).replace(/\.json$/i, ""));
  if (!catalog.ok) fail(`${args.file}: ${catalog.error}`);

  const declarations = generateDeclarations(catalog.servers);
  const out: string[] = [declarations.text];
  for (const c of declarations.collisions) {
    const where = c.kind === "tool" ? ` in server ${JSON.stringify(c.server)}` : "";
    const resolved = c.resolved.map((r) => `${JSON.stringify(r.original)} → ${r.sanitised}`).join(", ");
    out.push(`// collision${where}: ${resolved}`);
  }
  if (args.tokens) {
    const report = tokenReport(declarations, buildSystemPrompt(declarations));
    out.push("", `// Tokens (estimate, ${TOKEN_ENCODING})`);
    for (const ns of report.namespaces) {
      out.push(`// ${ns.namespace}: ${ns.tokens} (shared types ${ns.sharedTypes})`);
      for (const tool of ns.tools) out.push(`//   ${tool.name}: ${tool.tokens} (alone, with its types: ${tool.standalone})`);
    }
    out.push(`// system prompt: ${report.total}`);
  }
  if (args.lint) {
    const findings = lintTools(catalog.servers);
    out.push("", `// Lint: ${findings.length} ${findings.length === 1 ? "finding" : "findings"}`);
    for (const f of findings) {
      const where = f.tool === undefined ? f.server : `${f.server}/${f.tool}`;
      out.push(`// ${f.severity} ${f.code} ${where}: ${f.message}`, `//   fix: ${f.fix}`);
    }
  }
  process.stdout.write(`${out.join("\n")}\n`);
}

main();
