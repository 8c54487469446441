/**
 * The offline demo model's decisions, as a pure function of the prompt: which example the
 * person asked, what has happened since (search results, the code's result), and so what to
 * say or call next. demo-model.ts turns the decision into a stream.
 */
import { EXECUTE_CODE_TOOL, SEARCH_TOOLS_TOOL } from "../../codemode/system-prompt";
import type { ModelPrompt, PromptMessage } from "../spec-types";
import type { ExecuteCodeOutput } from "../types";
import { DEMO_SERVER_NAMES } from "../../demo-servers/catalog";
import { nextClassicWave, type AnsweredCall } from "./demo-classic";
import { rec, str } from "./demo-format";
import type { DemoScript } from "./demo-script";
import { normalisePrompt } from "./demo-script";
import { DEMO_SCRIPTS } from "./scripts";
import { CATALOG_SCRIPTS } from "./scripts-catalog";
import { skillScript } from "./scripts-skills";
import { SAMPLING_PREAMBLE } from "../sampling";

/** What the demo model does next: say something, or call tools (one call in code mode, a round in classic mode). */
export type DemoTurn = { kind: "text"; text: string } | { kind: "tools"; calls: Array<{ toolName: string; input: Record<string, unknown> }>; intro?: string };

/** Rounds a scripted classic session may take before the demo model gives up. */
const MAX_CLASSIC_ROUNDS = 12;

/** Said before a scripted classic session's first round, so nobody mistakes it for a model's choices. */
export const CLASSIC_SCRIPTED_NOTE = "(Scripted classic session: the demo model calls the tools its program would call, one round at a time.)";

const HELP = `I'm the **offline demo model**: I only know the demo servers' example prompts (click one in the empty chat, or paste it exactly), and I answer them with a fixed program that really runs in your browser's sandbox.

**To try your own server without a key:** press **Explore** on its card in the Servers panel. That writes a program into the editor that calls the server's read-only tools with sample arguments, all at once, and returns what each answered; Run it (Ctrl+Enter), edit the arguments, run again.

To ask anything else, pick a real model in the chat settings:
- **OpenAI**, **Anthropic**, **Google Gemini** or the **Vercel AI Gateway**: paste an API key in the settings (it is kept in this browser's localStorage and sent only to this app's own server), or set \`OPENAI_API_KEY\`, \`ANTHROPIC_API_KEY\`, \`GOOGLE_GENERATIVE_AI_API_KEY\` or \`AI_GATEWAY_API_KEY\` where the app runs.
- **Any OpenAI-compatible server** (Ollama, LM Studio, vLLM, llama.cpp, LiteLLM, OpenRouter): give its base URL, e.g. \`http://localhost:11434/v1\` for Ollama, and a key if it needs one.`;

function textOf(message: PromptMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

function findScript(text: string): DemoScript | undefined {
  const wanted = normalisePrompt(text);
  return [...DEMO_SCRIPTS, ...CATALOG_SCRIPTS].find((s) => normalisePrompt(s.prompt) === wanted) ?? skillScript(text);
}

/** What the demo model says when the script's server is not offered. */
function notOffered(script: DemoScript): string {
  return (
    script.notOffered ??
    `This example needs the **${script.server}** ${script.namespaces ? "" : "demo "}server, which is not connected. Enable it in the Servers panel, then send the prompt again.`
  );
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

/** The classic calls made since the user's message, with their results. */
function answeredCalls(prompt: ModelPrompt, index: number): { answered: AnsweredCall[]; rounds: number } {
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const answered: AnsweredCall[] = [];
  let rounds = 0;
  for (const message of prompt.slice(index + 1)) {
    if (message.role === "assistant") {
      const parts = message.content.filter((p) => p.type === "tool-call");
      if (parts.length > 0) rounds++;
      for (const part of parts)
        calls.set(part.toolCallId, { toolName: part.toolName, input: typeof part.input === "string" ? safeParse(part.input) : part.input });
    }
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const call = calls.get(part.toolCallId);
      const out = part.output as { type: string; value?: unknown };
      if (call) answered.push({ ...call, output: out.value, isError: out.type === "error-text" || out.type === "error-json" });
    }
  }
  return { answered, rounds };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Classic mode: the next round of the script's calls, or the answer once its value is known.
 * With tool search (search_tools offered), tools not loaded yet are searched for first: the
 * script's own query (as code mode's search form asks), then each tool still missing by name.
 */
async function classicTurn(script: DemoScript, prompt: ModelPrompt, userIndex: number, toolNames: readonly string[], system: string): Promise<DemoTurn> {
  const offered = new Set(toolNames);
  const searching = offered.has(SEARCH_TOOLS_TOOL);
  if (searching ? !serverOffered(system, script.server) : !toolNames.some((name) => name.startsWith(`${script.server}__`))) {
    return { kind: "text", text: notOffered(script) };
  }
  const { answered, rounds } = answeredCalls(prompt, userIndex);
  if (rounds >= MAX_CLASSIC_ROUNDS) return { kind: "text", text: `I stopped after ${rounds} rounds of tool calls without an answer.` };
  const wave = await nextClassicWave(script.code, script.namespaces ?? DEMO_SERVER_NAMES, answered, offered);
  if (wave.kind === "calls") return { kind: "tools", calls: wave.calls, ...(rounds === 0 ? { intro: `${CLASSIC_SCRIPTED_NOTE} ${script.intro}` } : {}) };
  if (wave.kind === "done") return { kind: "text", text: script.summarise(wave.value) };
  if (wave.kind === "missing") {
    if (!searching) return { kind: "text", text: `The tool calls did not get me an answer: the tool ${wave.tools[0]} was not offered.` };
    const asked = answered.filter((c) => c.toolName === SEARCH_TOOLS_TOOL).map((c) => str(rec(c.input).query));
    const intro = rounds === 0 ? `${CLASSIC_SCRIPTED_NOTE} First I'll look up the tools I need.` : undefined;
    if (asked.length === 0)
      return { kind: "tools", calls: [{ toolName: SEARCH_TOOLS_TOOL, input: { query: script.searchQuery, limit: 8 } }], ...(intro ? { intro } : {}) };
    const queries = wave.tools.map((name) => name.replace(/_+/g, " ").trim()).filter((q) => !asked.includes(q));
    if (queries.length === 0) return { kind: "text", text: `Tool search did not find ${wave.tools.join(", ")}, so I cannot answer.` };
    return { kind: "tools", calls: queries.map((query) => ({ toolName: SEARCH_TOOLS_TOOL, input: { query, limit: 3 } })) };
  }
  return { kind: "text", text: `The tool calls did not get me an answer: ${wave.message}.` };
}

/** Decides the demo model's next turn from the prompt and the tools it was offered. */
export async function decideDemoTurn(prompt: ModelPrompt, toolNames: readonly string[]): Promise<DemoTurn> {
  const userIndex = prompt.findLastIndex((m) => m.role === "user");
  const user = prompt[userIndex];
  if (!user) return { kind: "text", text: HELP };
  // An MCP server's sampling request: a short, plainly canned answer (sampling.ts).
  if (prompt.some((m) => m.role === "system" && textOf(m).startsWith(SAMPLING_PREAMBLE))) {
    const asked = textOf(user).replace(/\s+/g, " ").trim();
    return {
      kind: "text",
      text: `(Demo model, offline: a canned answer.) You asked: "${asked.length > 200 ? `${asked.slice(0, 200)}…` : asked}". Pick a real model in the chat settings for a real completion.`,
    };
  }
  const script = findScript(textOf(user));
  if (!script) return { kind: "text", text: HELP };
  const system = prompt
    .filter((m) => m.role === "system")
    .map(textOf)
    .join("\n");
  if (toolNames.length > 0 && !toolNames.includes(EXECUTE_CODE_TOOL)) return classicTurn(script, prompt, userIndex, toolNames, system);
  if (!serverOffered(system, script.server)) {
    return { kind: "text", text: notOffered(script) };
  }
  const results = resultsAfter(prompt, userIndex);
  const codeResult = results.findLast((r) => r.toolName === EXECUTE_CODE_TOOL);
  if (codeResult) return { kind: "text", text: answerFromRun(script, codeResult) };
  const searchMode = toolNames.includes(SEARCH_TOOLS_TOOL);
  if (searchMode && !results.some((r) => r.toolName === SEARCH_TOOLS_TOOL)) {
    return {
      kind: "tools",
      calls: [{ toolName: SEARCH_TOOLS_TOOL, input: { query: script.searchQuery, limit: 8 } }],
      intro: "First I'll look up the functions I need.",
    };
  }
  return { kind: "tools", calls: [{ toolName: EXECUTE_CODE_TOOL, input: { code: script.code } }], intro: script.intro };
}
