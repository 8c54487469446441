/**
 * The code-mode MCP endpoint's live run feed (/api/codemode/runs): its runs, and runs a
 * code-mode server in another process pushes, streamed to the playground page in local mode,
 * and the endpoint's settings. Apart from the endpoint (endpoint.ts), which loads the code-mode
 * server and its sandbox threads, because every page in local mode follows this feed from its
 * start. The feed is per process, kept on globalThis so that every route sees the same one
 * (docs/benchmarks.md, "The code-mode MCP server").
 */
import "server-only";
import type { Env } from "../../http/server/deployment";
import { RouteError } from "../../http/route-error";
import { readJsonBody } from "../../http/read-body";
import { runRecordSchema } from "../../timeline/run-file-schema";
import { checkLocalRequest, localGuardContext } from "../../mcp/stdio/server/local-guard";
import { RunFeed } from "../run-feed";

export const CONFIG_ENV = "CMP_CODEMODE_CONFIG";
export const TOKEN_ENV = "CMP_CODEMODE_TOKEN";
const MIN_TOKEN_CHARS = 32;

const FEED = Symbol.for("code-mode-playground.codemode-feed");

/** The process's run feed. */
export function runFeed(): RunFeed {
  const holder = globalThis as typeof globalThis & { [FEED]?: RunFeed };
  holder[FEED] ??= new RunFeed();
  return holder[FEED];
}

/** The configured path and token, or why the endpoint is off. */
export function codeModeSettings(env: Env): { ok: true; configPath: string; token: string } | { ok: false; reason: string } {
  const configPath = env[CONFIG_ENV]?.trim() ?? "";
  const token = env[TOKEN_ENV]?.trim() ?? "";
  if (configPath === "")
    return {
      ok: false,
      reason: `The code-mode MCP endpoint is off. Start the app with ${CONFIG_ENV}=<path to an mcp.json> and ${TOKEN_ENV}=<a secret of at least ${MIN_TOKEN_CHARS} characters>.`,
    };
  if (token.length < MIN_TOKEN_CHARS)
    return { ok: false, reason: `The code-mode MCP endpoint is off: ${TOKEN_ENV} must be set to a secret of at least ${MIN_TOKEN_CHARS} characters.` };
  return { ok: true, configPath, token };
}

/** A pushed run is at most this large (a record keeps big values as previews). */
export const MAX_PUSHED_RUN_BYTES = 8 * 1024 * 1024;

function assertLocalCaller(request: Request): void {
  const verdict = checkLocalRequest(request, { ...localGuardContext(), disabled: false });
  if (!verdict.ok) throw new RouteError("refused:codemode", verdict.reason);
}

/**
 * A run pushed by a code-mode MCP server in another process (`code-mode-playground mcp
 * --playground <link>` over stdio): checked like an imported run file, then published on this
 * app's feed, so it shows in the page like the endpoint's own runs. Local mode and the terminal's token.
 */
export async function acceptPushedRun(request: Request): Promise<Response> {
  assertLocalCaller(request);
  const body = await readJsonBody(request, MAX_PUSHED_RUN_BYTES, "codemode");
  const done = typeof body === "object" && body !== null && "done" in body ? body.done : undefined;
  const record = runRecordSchema.safeParse(typeof body === "object" && body !== null && "record" in body ? body.record : undefined);
  if (typeof done !== "boolean" || !record.success) throw new RouteError("bad_request:codemode", "Expected { record: <a run record>, done: boolean }.");
  runFeed().publish({ record: record.data, done });
  return new Response(null, { status: 204 });
}

/** Server-sent events of the endpoint's runs, for the playground page in local mode (the terminal's token). */
export function codeModeRunStream(request: Request): Response {
  assertLocalCaller(request);
  const feed = runFeed();
  const encoder = new TextEncoder();
  let unsubscribe: (() => void) | undefined;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    unsubscribe?.();
    clearInterval(keepAlive);
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      const settings = codeModeSettings(process.env);
      send(`event: status\ndata: ${JSON.stringify(settings.ok ? { on: true } : { on: false, reason: settings.reason })}\n\n`);
      unsubscribe = feed.subscribe((update) => send(`event: run\ndata: ${JSON.stringify(update)}\n\n`));
      keepAlive = setInterval(() => send(": keep-alive\n\n"), 15_000);
      request.signal.addEventListener("abort", stop, { once: true });
    },
    cancel: stop,
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" } });
}
