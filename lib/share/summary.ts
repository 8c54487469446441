/**
 * What a share holds, in words for the opened-link banner and the Share dialog, and where free
 * text the person wrote looks like it holds a credential (the dialog warns before sharing).
 * Pure.
 */
import type { ShareState } from "./schema";
import { looksLikeSecret, secretLines } from "../secrets/patterns";
import { plural } from "../text/display";

/** One short phrase per part of the share, in display order ("3 servers (1 needs connection)", "code, 12 lines"). */
export function describeShare(state: ShareState): string[] {
  const out: string[] = [];
  if (state.servers.length > 0) {
    const needing = state.servers.filter((s) => s.hadSecrets).length;
    out.push(`${plural(state.servers.length, "server")}${needing > 0 ? ` (${needing} ${needing === 1 ? "needs" : "need"} connection)` : ""}`);
  }
  const tools = state.tools.reduce((sum, snapshot) => sum + snapshot.tools.length, 0);
  if (tools > 0) out.push(`${plural(tools, "tool schema")} as seen when shared`);
  if (state.code !== undefined) out.push(`code, ${plural(state.code.split("\n").length, "line")} (not run until you click Run)`);
  if (state.inputs !== undefined) out.push(`its Inputs: ${Object.keys(JSON.parse(state.inputs) as object).join(", ")}`);
  if (state.systemPrompt !== undefined) out.push("a system prompt");
  if (state.model) out.push(`model ${state.model.provider} / ${state.model.id} (no API key)`);
  if (state.messages.length > 0) out.push(plural(state.messages.length, "chat message"));
  if (state.limits) out.push("sandbox limits");
  if (state.runs.length > 0) out.push(`${plural(state.runs.length, "recorded run")}, replayable offline`);
  if (state.skills && state.skills.length > 0) out.push(`${plural(state.skills.length, "skill")} (held for review: they run nothing until trusted)`);
  return out;
}

/** Places where the person's own text looks like it holds a credential, e.g. "code, line 3". */
export function findSecretLookalikes(state: ShareState): string[] {
  const out: string[] = [];
  if (state.code !== undefined) out.push(...secretLines(state.code).map((line) => `code, line ${line}`));
  if (state.systemPrompt !== undefined) out.push(...secretLines(state.systemPrompt).map((line) => `system prompt, line ${line}`));
  if (state.inputs !== undefined) out.push(...secretLines(state.inputs).map((line) => `Inputs, line ${line}`));
  state.skills?.forEach((skill, index) => {
    if (typeof skill.code === "string" && looksLikeSecret(skill.code)) out.push(`skill ${index + 1}'s code`);
  });
  state.messages.forEach((message, index) => {
    if (looksLikeSecret(JSON.stringify(message.parts))) out.push(`chat message ${index + 1}`);
  });
  for (const snapshot of state.tools) {
    if (snapshot.tools.some((tool) => looksLikeSecret(`${tool.description ?? ""}\n${JSON.stringify(tool.inputSchema)}`))) {
      out.push(`tool schemas of ${snapshot.server}`);
    }
  }
  return out;
}
