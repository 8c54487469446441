import type { RunResult } from "../sandbox/types";
import { clipCounted } from "../text/display";

/** Longest value or log excerpt a manual-result message carries; the model needs the gist, not megabytes. */
const MAX_CHARS = 8_000;

const clipForModel = (text: string) => clipCounted(text, MAX_CHARS);

/**
 * The message that hands a run the person made themselves (edited code, run from the editor)
 * to the model. A tool call the model made is already answered by then, so this travels as the
 * next user message, with the code and its typed result, in the same shape as a tool result.
 */
export function manualResultMessage(code: string, result: RunResult): string {
  const outcome = result.ok
    ? { value: result.value, logs: result.logs.map((l) => `${l.level}: ${l.text}`) }
    : { error: result.error, logs: result.logs.map((l) => `${l.level}: ${l.text}`) };
  return [
    "I edited the code and ran it myself. Use this result instead of the previous one.",
    "",
    "```ts",
    clipForModel(code),
    "```",
    "",
    result.ok ? "Result:" : `It failed (${result.error.kind}):`,
    "```json",
    clipForModel(JSON.stringify(outcome, null, 2)),
    "```",
  ].join("\n");
}
