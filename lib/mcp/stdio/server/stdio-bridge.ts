/**
 * The stdio bridge's HTTP surface, for the thin routes under app/api/mcp/stdio:
 *
 * - `POST /api/mcp/stdio`            → body `{ command, args?, env?, cwd?, fresh?, era? }`,
 *                                      header `x-cmp-local-token`; spawns the server (or shares
 *                                      its running process) and answers 201 `{ session, url,
 *                                      pid, sharedWith, era }`: the era the process speaks.
 * - `GET|POST /api/mcp/stdio/<session>` → MCP Streamable HTTP, relayed to the child; the
 *                                      `Mcp-Session-Id` the transport hands out equals `<session>`.
 * - `DELETE /api/mcp/stdio/<session>` → ends the session and kills the child (waits for it).
 * - `GET /api/mcp/stdio/<session>?stderr` → `{ stderr }`: the child's recent stderr, secrets removed.
 *
 * Every request needs the local token, which only the terminal that started the app shows
 * (see local-guard.ts), a loopback Host and local mode. Refusals are 403 JSON with the reason.
 * No CORS headers anywhere, on purpose: only the app's own page may use any of this.
 */
import "server-only";
import * as z from "zod";
import { readJsonBody } from "../../../http/read-body";
import { RouteError } from "../../../http/route-error";
import { checkLocalRequest, localGuardContext } from "./local-guard";
import { CHANNEL_ID_HEADER } from "../../../channel/channel-protocol";
import { STDIO_BRIDGE_PATH } from "../stdio-protocol";
import type { StdioStartResponse } from "../stdio-protocol";
import { getStdioSessions } from "./stdio-sessions";

const MAX_START_BODY_BYTES = 256 * 1024;

// NUL cannot cross exec(); Node would throw quoting the value, which may be a secret.
const noNul = (s: string) => !s.includes("\0");
const text = (max: number) => z.string().max(max).refine(noNul, "must not contain NUL characters");

/** Body of the start request: a desktop-config style stdio server. `env` values are secrets. */
export const StdioStartSchema = z
  .object({
    command: text(4_096).trim().min(1, "command is required"),
    args: z.array(text(32_768)).max(256).default([]),
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "env names are letters, digits and _"), text(32_768))
      .refine((env) => Object.keys(env).length <= 200, "at most 200 env variables")
      .default({}),
    cwd: text(4_096).min(1).optional(),
    /** Restart the server's process even when other pages share it (the person's Reconnect). */
    fresh: z.boolean().optional(),
    /** The era the person forced for this server; absent: the process is asked on its own pipe. */
    era: z.enum(["modern", "legacy"]).optional(),
  })
  .strict();

/** A parsed start request. */
export type StdioStartRequest = z.infer<typeof StdioStartSchema>;

/** Session ids are UUIDs (crypto.randomUUID); anything else is refused before a lookup. */
export const SessionIdSchema = z.uuid();

const NO_STORE = { "cache-control": "no-store" };

/** Throws the guard's refusal for this request (403 `refused:stdio`), or returns when it may proceed. */
export function assertLocal(request: Request): void {
  const verdict = checkLocalRequest(request, localGuardContext());
  if (!verdict.ok) throw new RouteError("refused:stdio", verdict.reason);
}

/** Reads and checks the start request's body. */
export async function readStartRequest(request: Request): Promise<StdioStartRequest> {
  const body = StdioStartSchema.safeParse(await readJsonBody(request, MAX_START_BODY_BYTES, "stdio"));
  if (!body.success) throw invalidBody(body.error);
  return body.data;
}

/** A zod failure as a bad request; only paths and messages, never the values sent. */
function invalidBody(error: z.ZodError): RouteError<"stdio"> {
  const issues = error.issues.map((issue) => `${issue.path.map(String).join(".") || "body"}: ${issue.message}`);
  return new RouteError("bad_request:stdio", `Invalid stdio server: ${issues.slice(0, 5).join("; ")}`);
}

/**
 * Starts a session; 201 with its endpoint, or the JSON error (command not found, exited at start,
 * too many). `channel` is the page channel the request came by (CHANNEL_ID_HEADER), if any.
 */
export async function startStdioSession(body: StdioStartRequest, channel?: string): Promise<Response> {
  try {
    const started = await getStdioSessions().start(
      {
        command: body.command,
        args: body.args,
        env: body.env,
        ...(body.cwd === undefined ? {} : { cwd: body.cwd }),
      },
      channel,
      { ...(body.fresh === true ? { fresh: true } : {}), ...(body.era ? { era: body.era } : {}) },
    );
    const payload: StdioStartResponse = { ...started, url: `${STDIO_BRIDGE_PATH}/${started.session}` };
    return Response.json(payload, { status: 201, headers: NO_STORE });
  } catch (error) {
    return toErrorResponse(error);
  }
}

/** Relays one MCP request to a session, or ends it (DELETE). */
export async function relayStdioRequest(sessionId: string, request: Request): Promise<Response> {
  const registry = getStdioSessions();
  if (request.method === "DELETE") {
    if (await registry.close(sessionId)) return Response.json({ closed: sessionId }, { headers: NO_STORE });
  } else {
    const session = registry.get(sessionId);
    const channel = request.headers.get(CHANNEL_ID_HEADER);
    if (session && channel) registry.adopt(sessionId, channel);
    // GET ?stderr: the child's recent stderr, for the server's view (not MCP traffic).
    if (session && request.method === "GET" && new URL(request.url).searchParams.has("stderr"))
      return Response.json({ stderr: session.stderr() }, { headers: NO_STORE });
    if (session) return session.handle(request);
  }
  const error = registry.endedError(sessionId) ?? new RouteError("not_found:stdio", `No stdio session ${sessionId}; start one first`);
  return error.toResponse();
}

/** Any thrown value as a JSON error response; unexpected errors get a generic message (theirs may quote env). */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof RouteError) return error.toResponse();
  return new RouteError("start_failed:stdio", "The stdio bridge failed unexpectedly", { cause: "spawn_error" }).toResponse();
}
