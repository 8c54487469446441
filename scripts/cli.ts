// The `code-mode-playground` command's subcommands (bin/code-mode-playground.mjs serves the
// playground itself; `npm run package` bundles this file into the installed package's cli/).
//
//   code-mode-playground mcp --config mcp.json [--skills DIR|FILE] [--base-url URL] [--playground LINK]
//   code-mode-playground skills convert <from> <to>   (a skills.json ⇄ a skills folder)
//   code-mode-playground agent "<prompt>" [options]   (scripts/agent.ts, as `npm run agent`)
//   code-mode-playground eval <suite.json> [options]  (scripts/eval.ts, as `npm run eval`)
//
// Serves the servers of an mcp.json as one code-mode MCP server on stdio: `execute_code` runs a
// program against their typed API in the QuickJS sandbox, `search_tools` finds functions.
// stdout carries the protocol; everything else goes to stderr. Exit codes: 0 after the client
// closed the connection, 2 on bad usage or a config or server that cannot be opened.
import { parseArgs } from "node:util";
import { openCodeModeServer, readCodeModeConfig } from "../lib/codemode-mcp/node/open";
import { serveStdio } from "../lib/codemode-mcp/node/stdio";
import { playgroundPublisher, type PlaygroundPublisher } from "../lib/codemode-mcp/node/playground-push";
import { readSkillsPath, writeSkillsPath } from "../lib/skills/node/skills-path";
import { messageOf } from "../lib/text/error-message";

const USAGE = `Usage: code-mode-playground [start] [--port <port>] [--host <host>]
       code-mode-playground mcp --config <mcp.json> [--skills <dir|file>] [--base-url <url>] [--playground <link>]
       code-mode-playground skills convert <from> <to>
       code-mode-playground agent "<prompt>" [options]     (--help for its options)
       code-mode-playground eval <suite.json> [options]    (--help for its options)

start (the default) serves the playground on 127.0.0.1:3000 and prints its link.

Serves the MCP servers of an mcp.json as one code-mode MCP server over stdio, with two tools:
execute_code (a JavaScript program against their typed API, run in a QuickJS sandbox) and
search_tools. An optional "codeMode" section in the file sets the destructive-tool policy per
server (refuse, allow, ask), mocks, limits and the concurrency cap; see docs/agents.md.

Options:
  --config <file>    the mcp.json to serve (required)
  --skills <path>    a skills folder or skills.json exported from the playground: each skill
                     becomes a tool, and skills.<name> inside programs (or codeMode.skills)
  --base-url <url>   resolves relative server URLs in the file
  --playground <link>  show every run live in a running playground: the link \`npm start\` printed
                     (http://127.0.0.1:3000/#cmp-token=…)

skills convert reads a skills folder or skills.json (as the playground exports them), checks it,
and writes it the other way: a folder (one directory per skill: skill.json, code.js, tests/) for a
code review, or one .json file (when <to> ends in .json) to import in the playground.`;

// agent and eval are their own scripts, which read the arguments after the command's name and
// end the process themselves; the rest is this file's own.
const delegated = process.argv[2] === "agent" || process.argv[2] === "eval" ? process.argv.splice(2, 1)[0] : undefined;
if (delegated === "agent") await import("./agent");
else if (delegated === "eval") await import("./eval");
else await main();

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      config: { type: "string" },
      skills: { type: "string" },
      "base-url": { type: "string" },
      playground: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });

  function fail(message: string): never {
    process.stderr.write(`${message}\n\n${USAGE}\n`);
    process.exit(2);
  }

  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (positionals[0] === "skills") {
    const [, action, from, to] = positionals;
    if (action !== "convert" || !from || !to) fail("skills convert takes <from> and <to>.");
    try {
      const skills = await readSkillsPath(from);
      const written = await writeSkillsPath(to, skills);
      process.stderr.write(`code-mode-playground: wrote ${skills.length === 1 ? "1 skill" : `${skills.length} skills`} (${written.length} files) to ${to}\n`);
      process.exit(0);
    } catch (error) {
      process.stderr.write(`code-mode-playground: ${messageOf(error)}\n`);
      process.exit(2);
    }
  }
  if (positionals[0] !== "mcp") fail(positionals[0] ? `Unknown command "${positionals[0]}".` : "Give a command.");
  if (!values.config) fail("--config is required.");

  let opened: Awaited<ReturnType<typeof openCodeModeServer>>;
  let pusher: PlaygroundPublisher | undefined;
  try {
    const config = await readCodeModeConfig(values.config, values.skills);
    const warn = (message: string) => process.stderr.write(`code-mode-playground: ${message}\n`);
    pusher = values.playground ? playgroundPublisher(values.playground, warn) : undefined;
    opened = await openCodeModeServer(config, { baseUrl: values["base-url"] ?? "http://127.0.0.1", ...(pusher ? { publish: pusher.publish } : {}) });
  } catch (error) {
    process.stderr.write(`code-mode-playground: ${messageOf(error)}\n`);
    process.exit(2);
  }
  for (const warning of opened.warnings) process.stderr.write(`warning: ${warning}\n`);
  process.stderr.write(
    `code-mode-playground: serving ${opened.serverNames.join(", ")} as execute_code${opened.skillNames.length > 0 ? ` and ${opened.skillNames.length === 1 ? "1 skill" : `${opened.skillNames.length} skills`} (${opened.skillNames.join(", ")})` : ""} on stdio (${opened.service.searchFirst ? "search first: the API is over the description budget" : "API in the description"})\n`,
  );
  /** How long closing the servers may take before the process leaves anyway. */
  const STOP_DEADLINE_MS = 2_000;
  let stopping: Promise<void> | undefined;
  const stop = (code = 0) =>
    (stopping ??= (async () => {
      // A server that does not close in time must not keep this process (and its children) alive.
      setTimeout(() => process.exit(code), STOP_DEADLINE_MS).unref();
      await pusher?.drain();
      await opened.close();
      process.exit(code);
    })());
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => void stop());
  await serveStdio(opened.service);
  await stop();
}
