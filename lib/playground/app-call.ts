/**
 * An MCP App's own tool calls (docs/mcp-apps.md, "MCP Apps"), made through the same host
 * functions a program's calls go through and recorded as one-call runs. Workbench.callForApp is
 * the page's entry; the pieces of the page it needs are injected. Pure.
 */
import type { CallToolResult } from "@modelcontextprotocol/client";
import { buildDebugHost } from "../host-calls/debug-host";
import type { ApprovalPolicy } from "../host-calls/approvals";
import { resultForApp } from "../mcp-apps/app-result";
import { NO_RUN_STATS } from "../sandbox/errors";
import type { RunResult } from "../sandbox/types";
import { namespacesOf } from "../timeline/namespaces";
import { RunRecorder, type HostReport } from "../timeline/recorder";
import type { RunRecord } from "../timeline/run-record";
import { messageOf } from "../text/error-message";
import type { MockStore } from "./mock-store";
import type { PageApprovals } from "./page-approvals";
import type { LiveHost } from "./workbench";

/** How an MCP App's call is decided and followed (Workbench.callForApp). */
export interface AppCallOptions {
  signal: AbortSignal;
  /** Asks the person about a call that needs approval; resolves true when they allow it. */
  ask: (call: { server: string; tool: string; args: unknown }, signal: AbortSignal) => Promise<boolean>;
}

/** What an app's call needs of the page. */
export interface AppCallPage {
  live: Pick<LiveHost, "appHostFor">;
  approvals: Pick<PageApprovals, "needsApproval">;
  mocks: Pick<MockStore, "snapshot" | "runScript">;
  /** Puts the call's one-call run into the history. */
  record(record: RunRecord): void;
}

/**
 * One `tools/call` from an MCP App of `server` (docs/mcp-apps.md, "MCP Apps"), through the
 * host functions every program's call goes through: arguments checked against the input
 * schema, the person's mocks, approval for destructive and marked tools (asked through
 * `options.ask`, beside the app), the server's cap. It is recorded as a one-call run from
 * "app" in the history, so the timeline shows it. Resolves with the raw result the server sent
 * (a mock's value, or a refusal, as a result built from it); never rejects.
 */
export async function callForApp(
  page: AppCallPage,
  server: string,
  tool: string,
  args: Record<string, unknown> | undefined,
  options: AppCallOptions,
): Promise<CallToolResult> {
  const raw = new Map<number, CallToolResult>();
  // The host reports during the call, once the recorder (which needs the names) exists.
  const late: { recorder?: RunRecorder } = {};
  const onInfo = (callId: number, info: HostReport) => {
    if ("result" in info && info.result) raw.set(callId, info.result as CallToolResult);
    late.recorder?.onCallInfo(callId, info);
  };
  const built = page.live.appHostFor?.(server, onInfo);
  const found = built?.server.tools.find((t) => t.name === tool);
  if (!built || !found) return resultForApp({ error: built ? `${server} has no tool "${tool}" an app may call.` : `${server} is not connected.` });
  const names = namespacesOf([built.server]);
  const where = names[0];
  const fn = where?.tools.find((t) => t.tool === tool)?.fn;
  if (!where || !fn) return resultForApp({ error: `${tool} has no function name.` });
  const destructive = found.annotations?.destructiveHint === true;
  const ask = options.ask;
  const policy: Pick<ApprovalPolicy, "needsApproval" | "decider"> = {
    needsApproval: (s, t) => (s === server && t === tool && destructive) || page.approvals.needsApproval(s, t),
    decider: () => ({
      by: "person",
      request: async (_callId, request) => ((await ask({ server, tool, args: request.args }, request.signal)) ? "approve" : "deny"),
    }),
  };
  const host = buildDebugHost({ live: built.host, names, onInfo, policy, mocks: page.mocks.snapshot(), runScript: page.mocks.runScript });
  const input = args ?? {};
  const recorder = new RunRecorder({
    id: `app-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    code: `// Called by the MCP App of ${tool}\nreturn await ${where.namespace}.${fn}(${JSON.stringify(input)});`,
    api: { [where.namespace]: where.tools.map((t) => t.fn) },
    names,
    title: `${server}.${tool} from its app`,
  });
  late.recorder = recorder;
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  recorder.onEvent({ type: "call-start", callId: 1, namespace: where.namespace, name: fn, args: input, time: 0 });
  let result: RunResult;
  try {
    const value = await host[where.namespace]![fn]!(input, options.signal, { callId: 1 });
    recorder.onEvent({ type: "call-end", callId: 1, time: elapsed(), ok: true, value });
    result = { ok: true, value, logs: [], stats: { ...NO_RUN_STATS, wallMs: elapsed(), hostCalls: 1 } };
  } catch (error) {
    const message = messageOf(error);
    recorder.onEvent({ type: "call-end", callId: 1, time: elapsed(), ok: false, error: message });
    result = { ok: false, error: { kind: "tool", message }, logs: [], stats: { ...NO_RUN_STATS, wallMs: elapsed(), hostCalls: 1 } };
  }
  const record = recorder.finish(result);
  page.record(record);
  return raw.get(1) ?? resultForApp(result.ok ? { value: result.value } : { error: result.error.message });
}
