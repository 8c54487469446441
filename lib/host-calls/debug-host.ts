/**
 * Composes a run's host functions from the live servers and the debugging tools, in one fixed
 * order of precedence: mock > replay > live. A mocked tool never reaches replay or a server; a
 * replayed call never reaches a server; only a call that goes live passes the approval gate,
 * because only a live call can change anything (approving a mock would be noise).
 */
import type { HostFunctions } from "../sandbox/types";
import type { CallInfo } from "../timeline/call-records";
import { withApprovalPolicy, type ApprovalPolicy, type NameMapping } from "./approvals";
import { countMocks, withMocks, type MockTable, type ScriptRunner } from "./mocks";
import { createReplayHost, type ReplayOptions } from "./replay";
import type { RunRecord } from "../timeline/run-record";

/** What to combine; everything but `live` is optional. */
export interface DebugHostOptions {
  live: HostFunctions;
  names?: readonly NameMapping[];
  onInfo?: (callId: number, info: CallInfo) => void;
  /** Who decides the live calls that need approval (lib/host-calls/approvals.ts). */
  policy?: Pick<ApprovalPolicy, "needsApproval" | "decider">;
  replay?: { record: RunRecord } & Pick<ReplayOptions, "onMismatch" | "timing" | "onDivergence">;
  mocks?: MockTable;
  runScript?: ScriptRunner;
}

/** The host functions for one run (build a fresh one per run: approve-all and replay state live in it). */
export function buildDebugHost(options: DebugHostOptions): HostFunctions {
  const { onInfo } = options;
  let host = options.live;
  if (options.policy) host = withApprovalPolicy(host, options.policy, { ...(options.names ? { names: options.names } : {}), ...(onInfo ? { onInfo } : {}) });
  if (options.replay) {
    const { record, ...replay } = options.replay;
    host = createReplayHost(record, { ...replay, live: host, ...(onInfo ? { onInfo } : {}) });
  }
  if (options.mocks && countMocks(options.mocks) > 0) host = withMocks(host, options.mocks, onInfo, options.runScript ? { runScript: options.runScript } : {});
  return host;
}
