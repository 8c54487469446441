#!/usr/bin/env node
// The `code-mode-playground` command, in a clone and in the installed package alike
// (docs/packaging.md):
//
//   code-mode-playground [start] [--port P] [--host H]   serves the playground and prints its link
//   code-mode-playground mcp --config mcp.json ...        the code-mode MCP server on stdio
//   code-mode-playground skills convert <from> <to>
//   code-mode-playground agent "<prompt>" [options]       the agent loop, headless
//   code-mode-playground eval <suite.json> [options]      an eval suite, headless
//
// The installed package carries its build: app/ is Next's standalone server with the page's
// assets, and app/.next/cmp/cli.mjs the commands, bundled. In a clone, `start` serves the
// existing build (`npm run build`) and the other commands run the TypeScript sources through tsx.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const packaged = existsSync(new URL("../app/.next/cmp/cli.mjs", import.meta.url));
const [command] = process.argv.slice(2);
const starts = command === undefined || command === "start" || (command.startsWith("-") && command !== "-h" && command !== "--help");

if (starts) {
  // scripts/serve.mjs reads only its own options.
  if (command === "start") process.argv.splice(2, 1);
  if (packaged) {
    process.chdir(fileURLToPath(new URL("../app/", import.meta.url)));
    // Next's standalone server takes its configuration as built, instead of loading next.config.js
    // with the build tools the package leaves out.
    const { config } = JSON.parse(readFileSync(".next/required-server-files.json", "utf8"));
    process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
    process.env.NODE_ENV = "production";
    await import(new URL("../app/scripts/serve.mjs", import.meta.url).href);
  } else {
    process.chdir(root);
    if (!existsSync(".next/BUILD_ID")) {
      process.stderr.write("code-mode-playground: there is no build here yet: run `npm start` (it builds, then serves).\n");
      process.exit(2);
    }
    await import(new URL("../scripts/serve.mjs", import.meta.url).href);
  }
} else if (packaged) {
  await import(new URL("../app/.next/cmp/cli.mjs", import.meta.url).href);
} else if ((command === "agent" || command === "eval") && !process.execArgv.includes("--conditions=react-server")) {
  // The model's providers are server-only modules: they load under the react-server condition,
  // which only a fresh process can turn on.
  const child = spawnSync(process.execPath, ["--conditions=react-server", ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  process.exit(child.status ?? 1);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../scripts/cli.ts");
}
