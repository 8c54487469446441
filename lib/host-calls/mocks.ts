/**
 * Mock tools: per tool, a fixed result, a fixed error, or a small script that computes the
 * result from the arguments. A mocked call never reaches the server; the timeline marks it.
 *
 * Scripts run in the sandbox, never on the main thread: each call evaluates the script in a
 * fresh QuickJS context through a ScriptRunner (runInNode in tests; in the browser a second
 * RunController with its own worker, because the main one is busy running the code that made
 * the call). The script is a function body like the person's code (`return { price: args.kg * 2 }`)
 * with `args` and `call` (1-based count of this tool's mocked calls) as globals, no tools, and
 * tight limits. What it returns is the result; what it throws becomes the tool's error. The
 * alternatives were worse: `new Function` on the main thread runs untrusted text with the
 * page's authority, and a script inside the *calling* guest's context could reach that run's
 * globals and the other tools.
 */
import type { HostFunction, HostFunctions, RunRequest, RunResult, SandboxLimits } from "../sandbox/types";
import type { CallInfo } from "../timeline/call-records";
import { define, mapHost, safely } from "./host-table";

/** One tool's mock. */
export type ToolMock = { kind: "value"; value: unknown } | { kind: "error"; message: string } | { kind: "script"; source: string };

/** Mocks by namespace, then by function name (the names the code uses). */
export type MockTable = Record<string, Record<string, ToolMock>>;

/** Runs a script request in a fresh sandbox context with no tools. */
export type ScriptRunner = (request: RunRequest, signal: AbortSignal) => Promise<RunResult>;

/** Limits for one mock script call: small, because a mock stands in for a quick answer. */
export const MOCK_SCRIPT_LIMITS: Partial<SandboxLimits> = {
  memoryBytes: 16 * 1024 * 1024,
  cpuMs: 500,
  wallMs: 2_000,
  maxCalls: 1,
  logBytes: 16 * 1024,
};

/** Options for withMocks. */
export interface MockOptions {
  /** Needed for script mocks; without it they fail with a clear message. */
  runScript?: ScriptRunner;
}

/** Thrown (in the guest) by an error mock or a failing script mock. */
export class MockError extends Error {
  readonly code = "mock-error";
  constructor(message: string) {
    super(message);
    this.name = "MockError";
  }
}

/**
 * Wraps host functions so mocked tools answer from their mock. Mocks for tools the host lacks
 * are added (so a server that is down can be mocked). Precedence when combined with replay:
 * mock > replay > live (see debug-host.ts).
 */
export function withMocks(host: HostFunctions, mocks: MockTable, onInfo?: (callId: number, info: CallInfo) => void, options: MockOptions = {}): HostFunctions {
  const counts = new Map<string, number>();
  const mocked =
    (namespace: string, name: string, mock: ToolMock): HostFunction =>
    async (args, signal, call) => {
      const key = `${namespace}\u0000${name}`;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      safely(onInfo, call.callId, { source: "mock" });
      switch (mock.kind) {
        case "value":
          return mock.value === undefined ? undefined : structuredClone(mock.value);
        case "error":
          throw new MockError(mock.message);
        case "script":
          return runMockScript(mock.source, args, count, signal, options.runScript);
      }
    };
  const wrapped = mapHost(host, (fn, namespace, name) => {
    const mock = mockFor(mocks, namespace, name);
    return mock ? mocked(namespace, name, mock) : fn;
  });
  for (const [namespace, table] of Object.entries(mocks)) {
    if (!Object.hasOwn(wrapped, namespace)) define(wrapped, namespace, {});
    const fns = wrapped[namespace];
    if (!fns) continue;
    for (const [name, mock] of Object.entries(table)) if (!Object.hasOwn(fns, name)) define(fns, name, mocked(namespace, name, mock));
  }
  return wrapped;
}

function mockFor(mocks: MockTable, namespace: string, name: string): ToolMock | undefined {
  const table = Object.hasOwn(mocks, namespace) ? mocks[namespace] : undefined;
  return table && Object.hasOwn(table, name) ? table[name] : undefined;
}

async function runMockScript(source: string, args: unknown, call: number, signal: AbortSignal, runScript: ScriptRunner | undefined): Promise<unknown> {
  if (!runScript) throw new MockError("This mock is a script, and no sandbox is available to run it");
  // data keys become globals; no arguments reads as {} (as the MCP host functions treat them).
  const data = { args: args ?? {}, call };
  const result = await runScript({ code: source, data, limits: MOCK_SCRIPT_LIMITS }, signal);
  if (result.ok) return result.value;
  const { kind, message } = result.error;
  // The engine reports a thrown Error as "Error: text"; the mock's error is just the text.
  throw new MockError(kind === "runtime" ? message.replace(/^Error: /, "") : `mock script (${kind}): ${message}`);
}

/** Counts mocks in a table, for labels such as "3 tools mocked". */
export function countMocks(mocks: MockTable): number {
  return Object.values(mocks).reduce((sum, table) => sum + Object.keys(table).length, 0);
}
