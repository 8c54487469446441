/**
 * The declarations as the model reads them: the generator's text with what costs tokens on
 * every request and tells the model nothing new left out. Monaco and the Tools tab keep every
 * doc; comments only change, so the declarations mean the same. See docs/page-state.md,
 * "What code mode sends". Pure.
 *
 * - A property documented with the same words as a property of the same name earlier in the
 *   namespace (a `carrier` id in every function's input and output) keeps its doc only once.
 * - A doc that only restates the property's name ("Cart id." on `cartId`) goes.
 * - A `@default` tag goes when the description already says it ("1–20, default 1").
 * - A one-line doc is a `//` comment on the line before, which costs fewer tokens than `/** *\/`.
 */

const DOC = /^\/\*\* (.*) \*\/$/;
const PROPERTY = /^(?:readonly )?([A-Za-z_$][\w$]*|"(?:[^"\\]|\\.)*")\??:/;
const FILLER = new Set(["a", "an", "the", "of"]);

const words = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "" && !FILLER.has(w));

/** True when every word of the doc is a word of the name: it says nothing the name does not. */
function restatesName(doc: string, name: string): boolean {
  const said = words(doc);
  const named = new Set(words(name));
  return said.length > 0 && said.every((w) => named.has(w));
}

const DEFAULT_TAG = / @default (\S+)(?= @|$)/;

/** The doc without its `@default` tag when the words before the tag already give that default. */
function withoutRepeatedDefault(doc: string): string {
  const tag = DEFAULT_TAG.exec(doc);
  if (!tag) return doc;
  const value = tag[1]!.replace(/^"(.*)"$/, "$1").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const said = new RegExp(`\\bdefault:?\\s+(?:is\\s+)?"?${value}(?!\\w)`, "i");
  const before = doc.slice(0, tag.index);
  return said.test(before) ? before + doc.slice(tag.index + tag[0].length) : doc;
}

/** `text` with repeated and name-only property docs removed, and one-line docs as `//` comments. */
export function declarationsForPrompt(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("declare namespace ")) seen = new Set();
    const doc = DOC.exec(line);
    if (!doc) {
      out.push(line);
      continue;
    }
    const property = PROPERTY.exec(lines[i + 1] ?? "");
    if (property) {
      const key = `${property[1]}\u0000${doc[1]}`;
      if (seen.has(key) || restatesName(doc[1]!, property[1]!)) continue;
      seen.add(key);
    }
    out.push(`// ${withoutRepeatedDefault(doc[1]!)}`);
  }
  return out.join("\n");
}
