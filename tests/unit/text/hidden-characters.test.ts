import { describe, expect, it } from "vitest";
import { escapeHidden, findHiddenCharacter, isVisibleText } from "@/lib/text/hidden-characters";

describe("hidden characters", () => {
  it.each([
    ["\u202E", "U+202E"],
    ["\u2066", "U+2066"],
    ["\u200B", "U+200B"],
    ["\u200F", "U+200F"],
    ["\u061C", "U+061C"],
    ["\uFEFF", "U+FEFF"],
    ["\u0000", "U+0000"],
    ["\u001B", "U+001B"],
    ["\u0085", "U+0085"],
    ["\u00AD", "U+00AD"],
  ])("finds %j as %s", (char, codePoint) => {
    expect(findHiddenCharacter(`npx a${char}b`)).toEqual({ codePoint, index: 5 });
    expect(isVisibleText(`x${char}`)).toBe(false);
  });

  it("lets ordinary text through, tabs and line breaks included", () => {
    for (const text of ["npx -y @modelcontextprotocol/server-memory", "node -e 'a\nb'\t", "café ☕ 日本語 עברית"]) expect(isVisibleText(text), text).toBe(true);
  });

  it("spells out what it hides, for display", () => {
    expect(escapeHidden("rm\u202E -rf\n~\t\u200B")).toBe("rm\\u{202E} -rf\\n~\\t\\u{200B}");
    expect(escapeHidden("plain")).toBe("plain");
  });
});
