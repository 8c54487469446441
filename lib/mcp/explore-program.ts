/**
 * "Explore this server": a starter program for a connected server that needs no model and no
 * key. It calls every read-only tool (`readOnlyHint: true`) with sample arguments made from its
 * schema, in parallel, and returns what each answered (or its error); tools that may change
 * something are listed, never called. Names come from resolveNames, as in the typed API. Pure.
 */
import { resolveNames } from "../codemode/names";
import type { ServerTools } from "../codemode/types";
import { sampleArguments } from "../forms/sample-arguments";

function comment(text: string | undefined, max = 100): string {
  const line = (text ?? "").replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The program for `servers[index]`, or undefined when there is no such server. */
export function exploreProgram(servers: readonly ServerTools[], index: number): string | undefined {
  const server = servers[index];
  if (!server) return undefined;
  const resolved = resolveNames(servers);
  const namespace = resolved.servers[index] ?? "_";
  const fns = resolved.tools[index] ?? [];
  const tools = server.tools.map((tool, t) => ({ tool, fn: fns[t] ?? "_" }));
  const safe = tools.filter(({ tool }) => tool.annotations?.readOnlyHint === true);
  const unsafe = tools.filter(({ tool }) => tool.annotations?.readOnlyHint !== true);
  const lines = [
    `// Explore "${comment(server.name, 60)}": ${tools.length} ${tools.length === 1 ? "tool" : "tools"}. The read-only ones are called below with sample`,
    "// arguments made from their schemas, all at once; the others may change something, so they are only listed.",
    "// Edit the arguments and Run again (Ctrl+Enter); hover a function for its types.",
    "",
  ];
  if (safe.length === 0) lines.push("// No tool of this server says it is read-only (readOnlyHint), so nothing is called.");
  lines.push("const calls = {");
  for (const { tool, fn } of safe) {
    const about = comment(tool.description);
    if (about) lines.push(`  // ${about}`);
    lines.push(`  ${JSON.stringify(fn)}: () => ${namespace}.${fn}(${JSON.stringify(sampleArguments(tool.inputSchema))}),`);
  }
  lines.push("};");
  lines.push("const names = Object.keys(calls);");
  lines.push("const settled = await Promise.allSettled(names.map((name) => calls[name]()));");
  lines.push("const answers = {};");
  lines.push("names.forEach((name, i) => {");
  lines.push("  const s = settled[i];");
  lines.push('  answers[name] = s.status === "fulfilled" ? s.value : { error: String(s.reason && s.reason.message ? s.reason.message : s.reason) };');
  lines.push("});");
  lines.push("return {");
  lines.push("  answers,");
  lines.push("  // Not called: they may change something. Call them yourself when you mean to.");
  lines.push(
    `  notCalled: ${JSON.stringify(unsafe.map(({ fn, tool }) => `${namespace}.${fn}${tool.description ? `: ${comment(tool.description, 80)}` : ""}`))},`,
  );
  lines.push("};");
  return lines.join("\n");
}
