/**
 * How the offline demo model plays classic tool calling: it replays its scripted program one
 * round at a time. Each turn the program runs again from the start, in this process, its types
 * stripped as the sandbox strips them (the demo scripts are our own constant text, never input).
 * Every call it makes is answered from the tool results already in the conversation; the calls
 * it makes that have no answer yet (those the program issues together, before it can go on) are
 * the next round.
 * When every call has an answer, the program's value is the answer to summarise. So a classic
 * session calls the same tools with the same arguments as the program, a round per wave of
 * Promise.all, and needs as many model steps as the program has waves.
 */
import { classicToolName } from "../../codemode/classic-tools";
import { canonicalJson } from "../../text/canonical-json";
import { loadTypeStripper, normaliseCode } from "../../sandbox/normalise";
import { messageOf } from "../../text/error-message";

/** A call the model made earlier and what came back. */
export interface AnsweredCall {
  toolName: string;
  input: unknown;
  output: unknown;
  isError: boolean;
}

/** What to do next: call these tools (one round), find tools not offered yet, or answer with the program's value or its error. */
export type ClassicWave =
  | { kind: "calls"; calls: Array<{ toolName: string; input: Record<string, unknown> }> }
  | { kind: "missing"; tools: string[] }
  | { kind: "done"; value: unknown }
  | { kind: "failed"; message: string };

// The constructor of async functions; the program becomes the body of one.
type AsyncFunctionConstructor = new (...args: string[]) => (...args: unknown[]) => Promise<unknown>;
const AsyncFunction = (
  Object.getPrototypeOf(async function () {
    await Promise.resolve();
  }) as { constructor: AsyncFunctionConstructor }
).constructor;

const key = (toolName: string, input: unknown) => `${toolName}\u0000${canonicalJson(input ?? {})}`;

/** Lets every microtask run, then one more macrotask turn: a program with nothing left to await is finished by then. */
const quiet = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs `code` against the answered calls and returns the next wave. `namespaces` are the
 * identifiers the program uses; `offered` the classic tool names the model was given.
 */
export async function nextClassicWave(
  code: string,
  namespaces: readonly string[],
  answered: readonly AnsweredCall[],
  offered: ReadonlySet<string>,
): Promise<ClassicWave> {
  // Answers by tool and arguments, in the order they were given (a program may repeat a call).
  const answers = new Map<string, AnsweredCall[]>();
  for (const call of answered) answers.set(key(call.toolName, call.input), [...(answers.get(key(call.toolName, call.input)) ?? []), call]);
  const pending: Array<{ toolName: string; input: Record<string, unknown> }> = [];
  const missing = new Set<string>();
  const namespace = (ns: string) =>
    new Proxy(
      {},
      {
        get: (_target, fn) => (args: unknown) => {
          const toolName = classicToolName(ns, String(fn));
          if (!offered.has(toolName)) {
            missing.add(toolName);
            return new Promise(() => undefined);
          }
          const queue = answers.get(key(toolName, args));
          const answer = queue?.shift();
          if (!answer) {
            pending.push({ toolName, input: (args ?? {}) as Record<string, unknown> });
            return new Promise(() => undefined);
          }
          return answer.isError
            ? Promise.reject(new Error(typeof answer.output === "string" ? answer.output : JSON.stringify(answer.output)))
            : Promise.resolve(answer.output);
        },
      },
    );
  const silent = { log: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  let outcome: { value: unknown } | { error: unknown } | undefined;
  // The demo scripts are constant text written in this repository (demo-script.ts), never input.
  // They are TypeScript where a type helps the editor's checker: stripped as the sandbox strips it.
  await loadTypeStripper();
  const normalised = normaliseCode(code);
  if (!("source" in normalised))
    return { kind: "failed", message: "error" in normalised ? `the program does not parse: ${normalised.error.message}` : "the program is not JavaScript" };
  const program = new AsyncFunction(...namespaces, "console", `return await ${normalised.source}`);
  void program(...namespaces.map(namespace), silent).then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  );
  await quiet();
  await quiet();
  if (missing.size > 0) return { kind: "missing", tools: [...missing] };
  if (pending.length > 0) return { kind: "calls", calls: pending };
  if (outcome && "value" in outcome) return { kind: "done", value: outcome.value };
  if (outcome) return { kind: "failed", message: messageOf(outcome.error) };
  return { kind: "failed", message: "the program did not finish" };
}
