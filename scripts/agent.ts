// `npm run agent -- "<prompt>" [options]`: the playground's agent loop without a page
// (lib/model/node/headless-agent.ts). By default it serves the four demo MCP servers on
// loopback and talks to the offline demo model, so it needs no key and no network.
// Exit codes: 0 the model answered, 1 the loop ended in an error or a limit, 2 bad usage.
import { createAgentPrinter, summaryLine } from "../lib/model/agent-output";
import { parseArgs } from "node:util";
import { importMcpServersConfig, MCP_CONFIG_MAX_BYTES } from "../lib/mcp/config";
import { readTextCappedSync } from "../lib/text/node/read-capped";
import { DEMO_SERVER_NAMES, demoServerPath } from "../lib/demo-servers/catalog";
import type { ServerConfig } from "../lib/mcp/types";
import { startDemoHost } from "../lib/demo-servers/node/demo-host";
import { stopNotice } from "../lib/model/loop-policy";
import { runHeadlessAgent, openToolWorld } from "../lib/model/node/headless-agent";
import { readSkillsPath } from "../lib/skills/node/skills-path";
import type { Skill } from "../lib/skills/skill";
import { PROVIDER_IDS, providerInfo, type ProviderId } from "../lib/model/providers";
import { resolveModel } from "../lib/model/server/provider-registry";
import { DEFAULT_DECLARATIONS_BUDGET_TOKENS, DISCOVERY_CHOICES, type DiscoveryChoice } from "../lib/codemode/prompt-form";
import type { ToolMode } from "../lib/model/tool-handler";
import { messageOf } from "../lib/text/error-message";

const USAGE = `Usage: code-mode-playground agent "<prompt>" [options]
       (in a clone: npm run agent -- "<prompt>" [options])

Sends one prompt through the code-mode agent loop: the model writes a program, it runs in the
QuickJS sandbox against the MCP servers, and the result goes back to the model.

Options:
  --config <mcp.json>     HTTP servers from an mcpServers file (default: the built-in demo servers)
  --skills <dir|file>     skills exported from the playground: programs call them as skills.<name>
  --provider <id>         ${PROVIDER_IDS.join(", ")} (default demo)
  --model <id>            model id (default: the provider's default)
  --base-url <url>        base URL for openai-compatible
  --classic               classic tool calling: every MCP tool offered as a tool, one model step per round
  --classic-search        classic tool calling with tool search: tools load when a search_tools call finds them
  --discovery <form>      auto (default): the model gets every declaration until they pass the budget,
                          then the namespaces and search_tools; declarations or search pins one form
  --declarations-budget <tokens>  the budget for auto (default ${DEFAULT_DECLARATIONS_BUDGET_TOKENS})
  --search                the same as --discovery search
  --max-steps <n>         model calls per turn (default 10)
  --json                  print the final conversation and inspector records as JSON

Keys come from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...), as for the server.
Exit codes: 0 answered, 1 error or limit, 2 bad usage.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    config: { type: "string" },
    skills: { type: "string" },
    provider: { type: "string", default: "demo" },
    model: { type: "string" },
    "base-url": { type: "string" },
    search: { type: "boolean", default: false },
    discovery: { type: "string", default: "auto" },
    "declarations-budget": { type: "string" },
    classic: { type: "boolean", default: false },
    "classic-search": { type: "boolean", default: false },
    "max-steps": { type: "string", default: "10" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const prompt = positionals.join(" ").trim();
if (prompt === "") fail("Give a prompt.");
if (!(PROVIDER_IDS as readonly string[]).includes(values.provider)) fail(`Unknown provider "${values.provider}".`);
const maxSteps = Number(values["max-steps"]);
if (!Number.isInteger(maxSteps) || maxSteps < 1) fail("--max-steps takes a positive integer.");
const discoveryValue = values.search ? "search" : values.discovery;
if (!(DISCOVERY_CHOICES as readonly string[]).includes(discoveryValue)) fail(`--discovery takes ${DISCOVERY_CHOICES.join(", ")}.`);
const discovery = discoveryValue as DiscoveryChoice;
const declarationsBudget = values["declarations-budget"] === undefined ? undefined : Number(values["declarations-budget"]);
if (declarationsBudget !== undefined && (!Number.isInteger(declarationsBudget) || declarationsBudget < 1))
  fail("--declarations-budget takes a positive integer.");
if (values.classic && values["classic-search"]) fail("Give --classic or --classic-search, not both.");
const toolMode: ToolMode = values["classic-search"] ? "classic-search" : values.classic ? "classic" : "code";

async function main(): Promise<number> {
  const demoHost = values.config ? undefined : await startDemoHost();
  let servers: ServerConfig[];
  if (values.config) {
    let text: string;
    try {
      text = readTextCappedSync(values.config, MCP_CONFIG_MAX_BYTES, "a config file");
    } catch (error) {
      fail(`Cannot read ${values.config}: ${messageOf(error)}`);
    }
    const imported = importMcpServersConfig(text);
    if (!imported.ok) fail(`${values.config}: ${imported.errors.join("; ")}`);
    servers = imported.servers.map((s) => ({ ...s, enabled: true }));
  } else {
    servers = DEMO_SERVER_NAMES.map((name) => ({ id: name, name, transport: "streamable-http", url: demoServerPath(name), headers: {}, enabled: true }));
  }
  const provider = values.provider as ProviderId;
  const model = resolveModel(
    { provider, modelId: values.model ?? providerInfo(provider).defaultModel, ...(values["base-url"] ? { baseURL: values["base-url"] } : {}) },
    { env: process.env, baseUrlPolicy: { allowPrivate: true } },
  );
  let skills: Skill[] = [];
  if (values.skills) {
    try {
      skills = await readSkillsPath(values.skills);
    } catch (error) {
      fail(messageOf(error));
    }
  }
  const world = await openToolWorld(servers, { baseUrl: demoHost?.url ?? "http://127.0.0.1", skills });
  const aborter = new AbortController();
  process.once("SIGINT", () => aborter.abort());
  let printed = "";
  const printer = createAgentPrinter(process.stdout, process.stderr);
  try {
    const result = await runHeadlessAgent({
      world,
      model,
      prompt,
      discovery,
      ...(declarationsBudget === undefined ? {} : { declarationsBudgetTokens: declarationsBudget }),
      toolMode,
      policy: { maxSteps },
      abortSignal: aborter.signal,
      onActivity: (id, activity) => {
        if (activity === "running") printer.running(id);
      },
      onMessages: (messages) => {
        // Stream the answer's text as it grows.
        const text = (messages.at(-1)?.role === "assistant" ? messages.at(-1)!.parts : []).flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
        if (!values.json && text.startsWith(printed)) printer.text(text.slice(printed.length));
        printed = text;
      },
    });
    printer.endText();
    for (const run of toolMode === "code" ? world.runs : [])
      printer.ended(run.toolCallId, run.result.ok ? "ok" : `${run.result.error.kind}: ${run.result.error.message}`);
    const tokens = result.steps.reduce((sum, s) => ({ input: sum.input + (s.usage?.inputTokens ?? 0), output: sum.output + (s.usage?.outputTokens ?? 0) }), {
      input: 0,
      output: 0,
    });
    printer.status(
      summaryLine({
        modelCalls: result.steps.length,
        work: toolMode === "code" ? { programs: world.runs.length } : { toolCalls: world.calls.length },
        inputTokens: tokens.input,
        outputTokens: tokens.output,
        stop: result.stop.kind,
      }),
    );
    if (values.json) process.stdout.write(`${JSON.stringify({ stop: result.stop, messages: result.messages, steps: result.steps }, null, 2)}\n`);
    if (result.stop.kind === "error") process.stderr.write(`Error: ${result.stop.message}\n`);
    else if (result.stop.kind !== "done" && result.stop.kind !== "stopped") process.stderr.write(`${stopNotice(result.stop) ?? ""}\n`);
    return result.stop.kind === "done" || result.stop.kind === "returned-directly" ? 0 : 1;
  } finally {
    await world.close();
    await demoHost?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${messageOf(error)}\n`);
    process.exit(1);
  },
);
