/**
 * The conformance driver: the official MCP conformance suite (`@modelcontextprotocol/conformance`)
 * starts a test server per client scenario and runs this script with the server URL as its last
 * argument and the scenario in MCP_CONFORMANCE_SCENARIO (pre-registered credentials, when the
 * scenario has them, in MCP_CONFORMANCE_CONTEXT). It drives the page's own client code
 * (lib/mcp/connection.ts, lib/mcp/oauth) with the OAuth provider in headless mode: connect
 * (signing in when the server asks), list the tools, call each with the arguments the test-call
 * form would send, answer elicitations as a person pressing Accept on the form would, close.
 * Exit 0 when all of that worked, 1 otherwise (the cause on stderr).
 *
 * `npm run conformance` (scripts/conformance.ts) runs every client scenario through it.
 */
import { connectToServer } from "../lib/mcp/connection";
import { createHeadlessOAuth } from "../lib/mcp/node/headless-oauth";
import { buildFormModel, initialValue, toArguments } from "../lib/forms";
import { sampleArguments } from "../lib/forms/sample-arguments";
import type { ServerConfig } from "../lib/mcp/types";

/** The Client ID Metadata Document URL the suite's authorization servers accept (it stands for the app's own document when served over https). */
const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** The suite's authorization servers redirect here; nothing needs to listen. */
const REDIRECT_URL = "http://localhost:3000/callback";

function preRegistered(): { clientId: string; clientSecret?: string } | undefined {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) return undefined;
  const context = JSON.parse(raw) as { client_id?: unknown; client_secret?: unknown };
  if (typeof context.client_id !== "string") return undefined;
  return { clientId: context.client_id, ...(typeof context.client_secret === "string" ? { clientSecret: context.client_secret } : {}) };
}

async function main(): Promise<void> {
  const serverUrl = process.argv.at(-1);
  if (!serverUrl || !/^https?:/.test(serverUrl)) throw new Error("usage: conformance-client <server-url> (MCP_CONFORMANCE_SCENARIO names the scenario)");
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  const oauth = createHeadlessOAuth(
    { redirectUrl: REDIRECT_URL, clientName: "code-mode-playground", clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL },
    preRegistered(),
  );
  const config: ServerConfig = { id: "conformance", name: "conformance", transport: "streamable-http", url: serverUrl, enabled: true };
  const connection = await connectToServer(config, {
    baseUrl: new URL(serverUrl).origin,
    proxyUrl: "/api/mcp/proxy",
    via: "direct",
    clientInfo: { name: "code-mode-playground", version: "0.1.0" },
    oauth: oauth.session,
    elicit: (_config, params) => {
      if (!("requestedSchema" in params) || params.requestedSchema === undefined) return Promise.resolve({ action: "decline" });
      const form = buildFormModel(params.requestedSchema);
      const answer = toArguments(form, initialValue(form));
      const content =
        answer.ok && typeof answer.args === "object" && answer.args !== null
          ? (answer.args as Record<string, string | number | boolean | string[]>)
          : undefined;
      return Promise.resolve(content ? { action: "accept", content } : { action: "cancel" });
    },
  });
  try {
    const tools = await connection.listTools();
    for (const tool of tools) {
      const result = await connection.callTool(tool.name, argumentsFor(tool, tools));
      console.log(`${scenario}: ${tool.name} → ${result.isError ? "isError" : "ok"}`);
      // A string a tool mirrors into an Mcp-Param header (SEP-2243), once more with a value only
      // base64 can carry in a header: the client must encode it.
      const unsafe = withUnsafeHeaderValues(tool);
      if (unsafe)
        console.log(`${scenario}: ${tool.name} (non-ASCII header values) → ${(await connection.callTool(tool.name, unsafe)).isError ? "isError" : "ok"}`);
    }
  } finally {
    await connection.close();
    for (const step of oauth.log.steps) console.log(`oauth: ${step.title}${step.error ? ` — ${step.error}` : ""}`);
  }
}

type ListedTool = { name: string; inputSchema: Record<string, unknown> };

/**
 * The arguments the driver sends a tool: sample ones made from its schema (as the test-call form
 * would), except for the suite's `json_schema_echo` (json-schema-2020-12-preservation), which asks
 * the client to send back the inputSchema it holds for `json_schema_2020_12_tool`, so the suite can
 * see that the client kept the schema as the server sent it ($ref, 2020-12 keywords).
 */
function argumentsFor(tool: ListedTool, tools: readonly ListedTool[]): Record<string, unknown> {
  if (tool.name === "json_schema_echo") {
    const observed = tools.find((t) => t.name === "json_schema_2020_12_tool")?.inputSchema;
    if (observed) return { schema: observed };
  }
  return sampleArguments(tool.inputSchema);
}

/** Sample arguments with each string the tool marks `x-mcp-header` set to a non-ASCII value, or undefined when it marks none. */
function withUnsafeHeaderValues(tool: ListedTool): Record<string, unknown> | undefined {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown; "x-mcp-header"?: unknown }>;
  const marked = Object.entries(properties).filter(([, p]) => typeof p["x-mcp-header"] === "string" && p.type === "string");
  if (marked.length === 0) return undefined;
  return { ...sampleArguments(tool.inputSchema), ...Object.fromEntries(marked.map(([key]) => [key, "naïve café ✓"])) };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    process.exit(1);
  },
);
