// `npm run sandbox -- <file> [options]`: runs a file in the QuickJS sandbox (Node, release
// build) under the default limits and prints the RunResult as JSON.
// Exit codes: 0 the run returned a value, 1 the run ended with an error result, 2 bad usage.
import { parseArgs } from "node:util";
import { SandboxConfigError } from "../lib/sandbox/errors";
import { runInNode } from "../lib/sandbox/node/node-engine";
import type { HostFunctions, SandboxLimits } from "../lib/sandbox/types";
import { readTextCappedSync } from "../lib/text/node/read-capped";

/** The largest program and data files read. */
const PROGRAM_MAX_BYTES = 4 * 1024 * 1024;
const DATA_MAX_BYTES = 16 * 1024 * 1024;

const USAGE = `Usage: npm run sandbox -- <file> [options]

Runs <file> (JavaScript or TypeScript; an async arrow function, a body with top-level await
and return, or a markdown code fence) and prints the RunResult as JSON.

Options:
  --data <json|@file>      an object whose keys become read-only globals
  --memory-mb <n>          heap limit (default 128)
  --stack-kb <n>           stack limit (default 128)
  --cpu-ms <n>             CPU time limit (default 10000)
  --wall-ms <n>            wall-clock limit (default 60000)
  --call-timeout-ms <n>    per tool call timeout (default 30000)
  --concurrency <n>        tool calls in flight at once (default 10)
  --max-calls <n>          tool calls per run (default 1000)
  --result-kb <n>          size of the returned value as JSON (default 1024)
  --log-kb <n>             console output kept (default 256)

One host namespace is built in: \`await host.echo(value)\` returns its argument.
Exit codes: 0 ok, 1 the run failed (the JSON says how), 2 bad usage.`;

const NUMERIC: Record<string, { key: keyof SandboxLimits; scale: number }> = {
  "memory-mb": { key: "memoryBytes", scale: 1024 * 1024 },
  "stack-kb": { key: "stackBytes", scale: 1024 },
  "cpu-ms": { key: "cpuMs", scale: 1 },
  "wall-ms": { key: "wallMs", scale: 1 },
  "call-timeout-ms": { key: "callTimeoutMs", scale: 1 },
  concurrency: { key: "maxConcurrency", scale: 1 },
  "max-calls": { key: "maxCalls", scale: 1 },
  "result-kb": { key: "resultBytes", scale: 1024 },
  "log-kb": { key: "logBytes", scale: 1024 },
};

const HOST: HostFunctions = { host: { echo: (args) => Promise.resolve(args) } };

function usage(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function parseData(text: string): Record<string, unknown> {
  const json = text.startsWith("@") ? readTextCappedSync(text.slice(1), DATA_MAX_BYTES, "a data file") : text;
  const data: unknown = JSON.parse(json);
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new Error("--data must be a JSON object");
  return data as Record<string, unknown>;
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        help: { type: "boolean", short: "h" },
        data: { type: "string" },
        ...Object.fromEntries(Object.keys(NUMERIC).map((name) => [name, { type: "string" as const }])),
      },
    });
  } catch (error) {
    usage((error as Error).message);
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  const [file, ...extra] = parsed.positionals;
  if (!file || extra.length > 0) usage(file ? `Unexpected arguments: ${extra.join(" ")}` : "Missing <file>.");

  const limits: Partial<SandboxLimits> = {};
  for (const [name, { key, scale }] of Object.entries(NUMERIC)) {
    const raw = (parsed.values as Record<string, string | boolean | undefined>)[name];
    if (typeof raw !== "string") continue;
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n) || n <= 0) usage(`--${name} needs a positive number, got "${raw}".`);
    limits[key] = key === "maxConcurrency" || key === "maxCalls" ? n : Math.round(n * scale);
  }
  let code: string;
  let data: Record<string, unknown> | undefined;
  try {
    code = readTextCappedSync(file, PROGRAM_MAX_BYTES, "a program");
    data = typeof parsed.values.data === "string" ? parseData(parsed.values.data) : undefined;
  } catch (error) {
    usage((error as Error).message);
  }
  try {
    const result = await runInNode({ code, data, limits }, HOST);
    console.log(JSON.stringify(result, null, 2));
    return result.ok ? 0 : 1;
  } catch (error) {
    if (error instanceof SandboxConfigError) usage(error.message);
    throw error;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
