/**
 * The generator's declarations, indented for a person to read (the Tools tab). The model and
 * Monaco get the compact text, which costs fewer tokens; this only re-indents lines by their
 * curly-brace depth (braces inside string literals and comments do not count) and puts a space before
 * a namespace's brace. Display only: the text's meaning is unchanged. Pure.
 */
const INDENT = "  ";

/** Brace depth change of one line, outside strings and comments; `comment` carries a block comment across lines. */
function scan(line: string, comment: boolean): { delta: number; leading: number; comment: boolean } {
  let delta = 0;
  let leading = 0;
  let seenCode = false;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (comment) {
      if (c === "*" && line[i + 1] === "/") {
        comment = false;
        i++;
      }
      continue;
    }
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "/" && line[i + 1] === "*") {
      comment = true;
      i++;
      continue;
    }
    if (c === "/" && line[i + 1] === "/") break;
    if (c === '"' || c === "'" || c === "`") {
      quote = c;
      seenCode = true;
      continue;
    }
    if (c === "}") {
      if (!seenCode) leading++;
      delta--;
    } else if (c === "{") delta++;
    if (c !== " " && c !== "\t") seenCode = true;
  }
  return { delta, leading, comment };
}

export function prettyDeclarations(text: string): string {
  let depth = 0;
  let comment = false;
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim().replace(/^(declare namespace [\w$]+)\{$/, "$1 {");
    const inComment = comment;
    const { delta, leading, comment: after } = scan(line, comment);
    const indent = Math.max(0, depth - (inComment ? 0 : leading));
    out.push(line === "" ? "" : `${INDENT.repeat(indent)}${inComment && line.startsWith("*") ? " " : ""}${line}`);
    depth = Math.max(0, depth + delta);
    comment = after;
  }
  return out.join("\n");
}
