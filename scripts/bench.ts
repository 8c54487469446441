// `npm run bench`: prints benchmark figures. Nothing here asserts on time; the figures go in
// the issue notes and the README's Benchmarks section. `--only node|browser|codemode|timeline|validation|server|modes` narrows it.
import { benchSandboxNode } from "./bench/sandbox-node";
import { benchSandboxBrowser } from "./bench/sandbox-browser";
import { benchCodemode } from "./bench/codemode";
import { benchTimeline } from "./bench/timeline";
import { benchValidation } from "./bench/validation";
import { benchModes } from "./bench/modes";
import { benchCodemodeServer } from "./bench/codemode-server";
import { printRows, type BenchRow } from "./bench/rows";

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;

const suites: Array<{ id: string; title: string; run: () => Promise<BenchRow[]> }> = [
  { id: "node", title: "Sandbox engine in Node (QuickJS, wasmfile release-sync)", run: benchSandboxNode },
  { id: "browser", title: "Sandbox in Chromium (module worker, singlefile release-sync, postMessage included)", run: benchSandboxBrowser },
  { id: "codemode", title: "Typed tool API (declarations, tokens, search)", run: benchCodemode },
  { id: "timeline", title: "Debugging timeline (10 000 calls, Node)", run: benchTimeline },
  { id: "validation", title: "Tool argument validation (Node)", run: benchValidation },
  { id: "server", title: "Code-mode MCP server: execute_code over Streamable HTTP vs calling the tool directly (Node, loopback)", run: benchCodemodeServer },
  { id: "modes", title: "Code mode vs classic tool calling (demo suite, demo model, Node)", run: benchModes },
];

for (const suite of suites) {
  if (only && suite.id !== only) continue;
  console.log(`\n## ${suite.title}\n`);
  try {
    printRows(await suite.run());
  } catch (error) {
    console.log(`(failed: ${error instanceof Error ? error.message : String(error)})`);
    process.exitCode = 1;
  }
}
