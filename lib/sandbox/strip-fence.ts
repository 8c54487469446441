/** Code with its markdown fence removed, and how many lines the fence removal shifted it by. */
export interface Unfenced {
  body: string;
  /** Lines removed above the code: add to a line of `body` to get the line as written. */
  lineOffset: number;
  /** The fence's info string, lower-cased ("js", "ts", …), or "" when there was none. */
  language: string;
}

const OPENING = /^\s*(`{3,}|~{3,})\s*([\w+#-]*)[^\n]*$/;

/**
 * Strips one markdown code fence (```js, ```ts, ``` or ~~~) when it opens the text, as models
 * often send. Only a leading fence counts: a fence further down is code (a template literal).
 */
export function stripFence(code: string): Unfenced {
  const lines = code.split(/\r?\n/);
  const first = lines.findIndex((line) => line.trim() !== "");
  const opening = first === -1 ? null : OPENING.exec(lines[first] ?? "");
  if (!opening) return { body: code, lineOffset: 0, language: "" };
  const fence = opening[1] ?? "```";
  const closing = new RegExp(`^\\s*${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
  let end = lines.length;
  for (let i = first + 1; i < lines.length; i++) {
    if (closing.test(lines[i] ?? "")) {
      end = i;
      break;
    }
  }
  return {
    body: lines.slice(first + 1, end).join("\n"),
    lineOffset: first + 1,
    language: (opening[2] ?? "").toLowerCase(),
  };
}
