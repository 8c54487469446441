// `npm run bench`: prints benchmark figures. Nothing here asserts on time; the figures go in
// the issue notes and docs/benchmarks.md. `--only node|browser|live|channel|chat|codemode|timeline|validation|server|codemode-server|memory|peers|skills|modes|eras|package` narrows it.
// Each suite's modules load when it runs: a process holding every suite's code (Playwright,
// the MCP SDK, the AI SDK) measured the Node sandbox about a quarter slower than one holding only its own.
import { printRows, type BenchRow } from "./bench/rows";
import { messageOf } from "../lib/text/error-message";

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;

const suites: Array<{ id: string; title: string; run: () => Promise<BenchRow[]> }> = [
  { id: "node", title: "Sandbox engine in Node (QuickJS, wasmfile release-sync)", run: async () => (await import("./bench/sandbox-node")).benchSandboxNode() },
  {
    id: "browser",
    title: "Sandbox in Chromium (module worker, wasmfile release-sync, postMessage included)",
    run: async () => (await import("./bench/sandbox-browser")).benchSandboxBrowser(),
  },
  {
    id: "live",
    title: "The live path in Chromium (production build): page ready, live tool calls to the lab demo server",
    run: async () => (await import("./bench/live-path")).benchLivePath(),
  },
  {
    id: "channel",
    title:
      "The app's end of the channel under load and attack, today against an earlier version (Node, loopback); then the page's channel with twelve servers (8 stdio, 4 HTTP) and fifty: against the page's plain HTTP path and the floor of the same run (Chromium, production build)",
    run: async () => [...(await (await import("./bench/channel-load")).benchChannelLoad()), ...(await (await import("./bench/channel")).benchChannel())],
  },
  {
    id: "chat",
    title: "A streaming chat answer's and a run's cost to the page's main thread (bare Chromium, production build)",
    run: async () => (await import("./bench/chat-stream")).benchChatStream(),
  },
  { id: "codemode", title: "Typed tool API (declarations, tokens, search)", run: async () => (await import("./bench/codemode")).benchCodemode() },
  { id: "timeline", title: "Debugging timeline (10 000 calls, Node)", run: async () => (await import("./bench/timeline")).benchTimeline() },
  { id: "validation", title: "Tool argument validation (Node)", run: async () => (await import("./bench/validation")).benchValidation() },
  {
    id: "server",
    title: "Code-mode MCP server: execute_code over Streamable HTTP vs calling the tool directly (Node, loopback)",
    run: async () => (await import("./bench/codemode-server")).benchCodemodeServer(),
  },
  {
    id: "codemode-server",
    title:
      "Code-mode MCP server, whole: execute_code against direct calls, the two eras, approvals (Node, loopback); then one instance against two behind the shipped nginx config with Redis (production build)",
    run: async () => [
      ...(await (await import("./bench/codemode-server")).benchCodemodeServer()),
      ...(await (await import("./bench/codemode-instances")).benchCodemodeInstances()),
    ],
  },
  {
    id: "memory",
    title: "Code-mode MCP server memory over 12 000 programs (Node, loopback, pool of 2)",
    run: async () => (await import("./bench/codemode-memory")).benchCodemodeMemory(),
  },
  {
    id: "peers",
    title: "First load against the peers: the MCP Inspector and MCPJam, interleaved fresh loads (bare Chromium, production builds)",
    run: async () => (await import("./bench/peers")).benchPeers(),
  },
  {
    id: "skills",
    title: "Skills: a program called as a skill against inline, a skill test's replay (Node)",
    run: async () => (await import("./bench/skills")).benchSkills(),
  },
  { id: "modes", title: "Code mode vs classic tool calling (demo suite, demo model, Node)", run: async () => (await import("./bench/modes")).benchModes() },
  {
    id: "package",
    title: "The installable package against the peers' packages: sizes, installs into an empty folder, starts from there (npm, bare Chromium)",
    run: async () => (await import("./bench/package")).benchPackage(),
  },
  {
    id: "eras",
    title: "The two MCP protocol eras through the page's client code, on one v2 server that answers both (Node, loopback)",
    run: async () => (await import("./bench/eras")).benchEras(),
  },
];

for (const suite of suites) {
  if (only && suite.id !== only) continue;
  console.log(`\n## ${suite.title}\n`);
  try {
    printRows(await suite.run());
  } catch (error) {
    console.log(`(failed: ${messageOf(error)})`);
    process.exitCode = 1;
  }
}
