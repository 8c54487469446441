/**
 * The offline demo model's decisions, as a pure function of the prompt: which example the
 * person asked, what has happened since (search results, the code's result), and so what to
 * say or call next. demo-model.ts turns the decision into a stream.
 */
import { EXECUTE_CODE_TOOL, SEARCH_TOOLS_TOOL } from "../../codemode/system-prompt";
import type { ModelPrompt, PromptMessage } from "../spec-types";
import type { ExecuteCodeOutput } from "../types";
import { rec, str } from "./demo-format";
import type { DemoScript } from "./demo-script";
import { normalisePrompt } from "./demo-script";
import { DEMO_SCRIPTS } from "./scripts";

/** What the demo model does next. */
export type DemoTurn = { kind: "text"; text: string } | { kind: "tool"; toolName: string; input: Record<string, unknown>; intro?: string };

const HELP = `I'm the **offline demo model**: I only know the demo servers' example prompts (click one in the empty chat, or paste it exactly), and I answer them with a fixed program that really runs in your browser's sandbox.

To ask anything else, pick a real model in the chat settings:
- **OpenAI**, **Anthropic**, **Google Gemini** or the **Vercel AI Gateway**: paste an API key in the settings (it is kept in this browser's localStorage and sent only to this app's own server), or set \`OPENAI_API_KEY\`, \`ANTHROPIC_API_KEY\`, \`GOOGLE_GENERATIVE_AI_API_KEY\` or \`AI_GATEWAY_API_KEY\` where the app runs.
- **Any OpenAI-compatible server** (Ollama, LM Studio, vLLM, llama.cpp, LiteLLM, OpenRouter): give its base URL, e.g. \`http://localhost:11434/v1\` for Ollama, and a key if it needs one.`;

function textOf(message: PromptMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

function findScript(text: string): DemoScript | undefined {
  const wanted = normalisePrompt(text);
  return DEMO_SCRIPTS.find((s) => normalisePrompt(s.prompt) === wanted);
}

/** True when the system prompt offers the server's namespace (declarations or search-mode list). */
function serverOffered(system: string, namespace: string): boolean {
  return new RegExp(`declare namespace ${namespace}\\b|^- ${namespace}\\b`, "m").test(system);
}

interface ToolResultSeen {
  toolName: string;
  output: unknown;
  isError: boolean;
}

function resultsAfter(prompt: ModelPrompt, index: number): ToolResultSeen[] {
  const seen: ToolResultSeen[] = [];
  for (const message of prompt.slice(index + 1)) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const out = part.output as { type: string; value?: unknown };
      seen.push({ toolName: part.toolName, output: out.value, isError: out.type === "error-text" || out.type === "error-json" });
    }
  }
  return seen;
}

function answerFromRun(script: DemoScript, result: ToolResultSeen): string {
  if (result.isError) return `The ${EXECUTE_CODE_TOOL} call could not run: ${str(result.output, JSON.stringify(result.output))}.`;
  const output = rec(result.output) as Partial<ExecuteCodeOutput> & Record<string, unknown>;
  if (output.ok === true) return script.summarise(output.value);
  if (output.skipped === true)
    return `You chose not to run the program, so I have no result. ${str(output.message)}\n\nSend the prompt again to get a new program, or run it yourself from the editor.`;
  const error = rec(output.error);
  const hint = /is not defined/.test(str(error.message)) ? ` Is the **${script.server}** demo server connected in the Servers panel?` : "";
  return `The program failed with a **${str(error.kind, "runtime")}** error: ${str(error.message)}.${hint}\n\nI am a scripted demo and cannot rewrite the code; a real model would read this error, fix the program and run it again.`;
}

/** Decides the demo model's next turn from the prompt and the tools it was offered. */
export function decideDemoTurn(prompt: ModelPrompt, toolNames: readonly string[]): DemoTurn {
  const userIndex = prompt.findLastIndex((m) => m.role === "user");
  const user = prompt[userIndex];
  if (!user) return { kind: "text", text: HELP };
  const script = findScript(textOf(user));
  if (!script) return { kind: "text", text: HELP };
  const system = prompt
    .filter((m) => m.role === "system")
    .map(textOf)
    .join("\n");
  if (!serverOffered(system, script.server)) {
    return {
      kind: "text",
      text: `This example needs the **${script.server}** demo server, which is not connected. Enable it in the Servers panel, then send the prompt again.`,
    };
  }
  const results = resultsAfter(prompt, userIndex);
  const codeResult = results.findLast((r) => r.toolName === EXECUTE_CODE_TOOL);
  if (codeResult) return { kind: "text", text: answerFromRun(script, codeResult) };
  const searchMode = toolNames.includes(SEARCH_TOOLS_TOOL);
  if (searchMode && !results.some((r) => r.toolName === SEARCH_TOOLS_TOOL)) {
    return { kind: "tool", toolName: SEARCH_TOOLS_TOOL, input: { query: script.searchQuery, limit: 8 }, intro: "First I'll look up the functions I need." };
  }
  return { kind: "tool", toolName: EXECUTE_CODE_TOOL, input: { code: script.code }, intro: script.intro };
}
