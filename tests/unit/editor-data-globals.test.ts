import { describe, expect, it } from "vitest";
import { dataDeclarations, parseDataGlobals } from "@/lib/editor/data-globals";

describe("the editor's inputs", () => {
  it("reads a JSON object whose keys become globals; empty is none", () => {
    expect(parseDataGlobals("")).toEqual({ ok: true, data: {} });
    expect(parseDataGlobals('{ "maxDays": 5, "to": ["US"] }')).toEqual({ ok: true, data: { maxDays: 5, to: ["US"] } });
  });

  it("says what is wrong", () => {
    expect(parseDataGlobals("{")).toMatchObject({ ok: false, message: expect.stringMatching(/^Inputs are not JSON: /) as unknown });
    expect(parseDataGlobals("[1]")).toEqual({ ok: false, message: 'Inputs are a JSON object whose keys become globals: { "maxDays": 5 }.' });
    expect(parseDataGlobals('{ "max days": 1 }')).toEqual({
      ok: false,
      message: 'The input "max days" cannot be a global: use a plain name that is not a reserved word or a built-in.',
    });
    expect(parseDataGlobals('{ "Math": 1 }').ok).toBe(false);
    expect(parseDataGlobals('{ "shipping": 1 }').ok).toBe(true);
  });

  it("declares each input with its value's type", () => {
    expect(dataDeclarations({ maxDays: 5, to: ["US", "DE"], box: { w: 1, "the label": "x" }, none: null })).toBe(
      [
        "/** An input (the editor's Inputs). */\ndeclare const maxDays: number;",
        "/** An input (the editor's Inputs). */\ndeclare const to: string[];",
        '/** An input (the editor\'s Inputs). */\ndeclare const box: {w:number;"the label":string};',
        "/** An input (the editor's Inputs). */\ndeclare const none: null;",
      ].join("\n"),
    );
  });
});
