/**
 * The `lab` demo MCP server: tools for debugging clients, the sandbox and the timeline.
 * echo, sleep (with progress), fail (isError), protocol_error (a JSON-RPC error), big (a large
 * result) and flaky (deterministic pseudo-random failures). A call to sleep is answered with an
 * event stream (see the catalog) because JSON responses drop progress notifications; the rest
 * with one JSON body.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { ProtocolErrorCode } from "@modelcontextprotocol/server";
import * as z from "zod";
import { failure, ok } from "./result";

/** Longest sleep, so a demo deployment cannot be tied up. */
export const MAX_SLEEP_MS = 10_000;
/** Largest `big` result, in KB (the text mirror doubles what goes over the wire). */
export const MAX_BIG_KB = 16_384;
const PROTOCOL_CODES = [
  ProtocolErrorCode.InvalidRequest,
  ProtocolErrorCode.MethodNotFound,
  ProtocolErrorCode.InvalidParams,
  ProtocolErrorCode.InternalError,
  -32000,
] as const;

/** FNV-1a over the text, then murmur3's finaliser, as a number in [0, 1): a stable "random" roll. */
export function roll(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // FNV alone barely moves the high bits when only the last character changes ("seed:1" vs
  // "seed:2"), so rolls for successive attempts would cluster; the finaliser spreads them.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 2 ** 32;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("cancelled"));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("cancelled"))), { once: true });
  });
}

type CallRequest = { params: { name: string; arguments?: Record<string, unknown> } };

/**
 * McpServer turns every error a tool handler throws into an `isError` result, ProtocolError
 * included (only UrlElicitationRequired escapes). To produce a real JSON-RPC error we wrap the
 * tools/call handler it installs, which means catching the install: this must run before the
 * first registerTool.
 */
function raiseProtocolErrorsFrom(server: McpServer, toolName: string): void {
  const low = server.server;
  const install = low.setRequestHandler.bind(low) as (method: string, handler: unknown) => void;
  low.setRequestHandler = ((method: string, handler: (request: CallRequest, ctx: unknown) => unknown) => {
    if (method !== "tools/call") return install(method, handler);
    return install(method, (request: CallRequest, ctx: unknown) => {
      if (request.params.name !== toolName) return handler(request, ctx);
      const args = request.params.arguments ?? {};
      const code = PROTOCOL_CODES.find((c) => c === args.code) ?? ProtocolErrorCode.InternalError;
      const message = typeof args.message === "string" && args.message !== "" ? args.message : "Deliberate protocol error from lab.protocol_error";
      // The SDK sends a thrown error's `code`, `message` and `data` as the JSON-RPC error.
      throw Object.assign(new Error(message), { code, data: { tool: toolName } });
    });
  }) as typeof low.setRequestHandler;
}

/** Builds a fresh `lab` server. */
export function createLabServer(): McpServer {
  const server = new McpServer(
    { name: "lab", version: "1.0.0", title: "Debugging lab (demo)" },
    { instructions: "Tools that misbehave on purpose, for testing clients: slow, failing, huge and flaky calls." },
  );
  raiseProtocolErrorsFrom(server, "protocol_error");
  const safe = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

  server.registerTool(
    "echo",
    {
      title: "Echo",
      description: "Returns its arguments unchanged. Useful to see exactly what a client sends.",
      inputSchema: {
        message: z.string().max(10_000).describe("Text to send back."),
        data: z.unknown().optional().describe("Any JSON value to send back as well."),
      },
      outputSchema: {
        message: z.string().describe("The message received."),
        data: z.unknown().optional().describe("The data received, when any."),
      },
      annotations: safe,
    },
    ({ message, data }) => ok(data === undefined ? { message } : { message, data }),
  );

  server.registerTool(
    "sleep",
    {
      title: "Sleep",
      description: `Waits for the given time, then answers. Sends up to 10 progress notifications on the way when the caller asks for progress. Capped at ${MAX_SLEEP_MS} ms.`,
      inputSchema: { ms: z.number().int().min(0).max(MAX_SLEEP_MS).describe(`How long to wait, in milliseconds (0–${MAX_SLEEP_MS}).`) },
      outputSchema: {
        sleptMs: z.number().describe("How long the tool waited, in milliseconds."),
        progressNotifications: z.number().int().min(0).max(10).describe("How many progress notifications were sent."),
      },
      annotations: safe,
    },
    async ({ ms }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      const steps = Math.max(1, Math.min(10, Math.ceil(ms / 100)));
      let sent = 0;
      for (let step = 1; step <= steps; step++) {
        await delay(ms / steps, ctx.mcpReq.signal);
        if (token === undefined) continue;
        const message = `slept ${Math.round((ms * step) / steps)} of ${ms} ms`;
        await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: step, total: steps, message } });
        sent++;
      }
      return ok({ sleptMs: ms, progressNotifications: sent });
    },
  );

  server.registerTool(
    "fail",
    {
      title: "Fail",
      description:
        "Always fails with a tool error (isError: true) carrying the given message, the way a tool reports a problem the model should read and handle.",
      inputSchema: { message: z.string().min(1).max(10_000).describe("The error message to fail with.") },
      outputSchema: { message: z.string().describe("Never returned: this tool always answers with isError.") },
      annotations: safe,
    },
    ({ message }) => failure(message),
  );

  server.registerTool(
    "protocol_error",
    {
      title: "Protocol error",
      description:
        "Always fails with a JSON-RPC error instead of a result, the way a broken or refusing server does. The client sees a thrown protocol error, not a tool result.",
      inputSchema: {
        message: z.string().max(10_000).optional().describe("Error message; a default one is used when omitted."),
        code: z
          .literal([...PROTOCOL_CODES])
          .optional()
          .describe("JSON-RPC error code: -32600, -32601, -32602, -32603 (default) or -32000."),
      },
      outputSchema: { message: z.string().describe("Never returned: this tool always answers with a JSON-RPC error.") },
      annotations: safe,
    },
    // Never runs: raiseProtocolErrorsFrom answers this tool before McpServer dispatches it.
    () => failure("protocol_error was not intercepted"),
  );

  server.registerTool(
    "big",
    {
      title: "Big result",
      description: `Returns a result of about the given size, in KB, of deterministic filler text split into 1 KB items. Capped at ${MAX_BIG_KB} KB. Tests result size limits.`,
      inputSchema: { kb: z.number().int().min(1).max(MAX_BIG_KB).describe(`Approximate size of structuredContent, in KB (1–${MAX_BIG_KB}).`) },
      outputSchema: {
        kb: z.number().describe("The size asked for."),
        items: z
          .array(
            z.object({ index: z.number().int().min(0).max(MAX_BIG_KB).describe("Position of the item."), text: z.string().describe("About 1 KB of filler.") }),
          )
          .describe("One item per KB."),
      },
      annotations: safe,
    },
    ({ kb }) => {
      const filler = "The quick brown fox jumps over the lazy dog. ".repeat(22).slice(0, 990);
      return ok({ kb, items: Array.from({ length: kb }, (_, index) => ({ index, text: filler })) });
    },
  );

  server.registerTool(
    "flaky",
    {
      title: "Flaky",
      description:
        "Fails (isError) or succeeds by a pseudo-random roll that depends only on seed and attempt: fails when the roll in [0, 1) is below rate. The same seed and attempt always give the same outcome; retry with attempt + 1 for a new roll.",
      inputSchema: {
        seed: z.union([z.string().max(200), z.number()]).describe("Any string or number; fixes the outcome."),
        rate: z.number().min(0).max(1).describe("Failure probability, 0 (never) to 1 (always)."),
        attempt: z.number().int().min(0).max(1000).default(0).describe("Retry counter; each value gives a new roll (default 0)."),
      },
      outputSchema: {
        seed: z.union([z.string(), z.number()]).describe("The seed received."),
        attempt: z.number().int().min(0).max(1000).describe("The attempt received."),
        rate: z.number().describe("The failure rate received."),
        roll: z.number().describe("The roll, in [0, 1); at or above rate, so the call succeeded."),
      },
      annotations: safe,
    },
    ({ seed, rate, attempt }) => {
      const r = roll(`${String(seed)}:${attempt}`);
      if (r < rate)
        return failure(
          `flaky failure: roll ${r.toFixed(4)} < rate ${rate} (seed ${JSON.stringify(seed)}, attempt ${attempt}); retry with attempt ${attempt + 1}`,
        );
      return ok({ seed, attempt, rate, roll: r });
    },
  );

  return server;
}
