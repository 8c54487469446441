import { beforeAll, describe, expect, it } from "vitest";
import { loadTypeStripper, normaliseCode } from "@/lib/sandbox/normalise";
import { stripFence } from "@/lib/sandbox/strip-fence";

function source(code: string): string {
  const normalised = normaliseCode(code);
  if ("error" in normalised) throw new Error(`unexpected syntax error: ${normalised.error.message}`);
  if ("needsTypeStripper" in normalised) throw new Error("the TypeScript stripper is not loaded");
  return normalised.source;
}

function syntaxError(code: string) {
  const normalised = normaliseCode(code);
  if (!("error" in normalised)) throw new Error("expected a syntax error");
  return normalised.error;
}

describe("the TypeScript stripper loads only when code needs it", () => {
  // Runs first, before the suite below loads sucrase for the rest of this file.
  it("answers plain JavaScript without it, and asks for it for TypeScript", () => {
    expect(normaliseCode("return 1")).toHaveProperty("source");
    expect(normaliseCode("const n: number = 1;\nreturn n")).toEqual({ needsTypeStripper: true });
  });
});

describe("normaliseCode", () => {
  beforeAll(loadTypeStripper);

  it("wraps a bare body with top-level await and return, keeping line 1 on line 1", () => {
    expect(source("const a = await f();\nreturn a")).toBe("(async () => {const a = await f();\nreturn a\n})()");
  });

  it("returns the last expression statement when there is no top-level return", () => {
    expect(source("const xs = [1, 2];\nxs.map((x) => x * 2)")).toBe("(async () => {const xs = [1, 2];\nreturn (xs.map((x) => x * 2));\n})()");
    expect(source("1 + 2;")).toBe("(async () => {return (1 + 2);\n})()");
    expect(source("(a, b) // trailing")).toBe("(async () => {return ((a, b)); // trailing\n})()");
  });

  it("leaves code alone when a return belongs to the top level, wherever it is", () => {
    expect(source("if (x) { return 1 }\nf()")).toBe("(async () => {if (x) { return 1 }\nf()\n})()");
  });

  it("still auto-returns when the only returns are inside nested functions", () => {
    expect(source("function g() { return 1 }\ng()")).toBe("(async () => {function g() { return 1 }\nreturn (g());\n})()");
  });

  it("does not return a last statement that is not an expression", () => {
    expect(source("const a = 1;")).toBe("(async () => {const a = 1;\n})()");
    expect(source("")).toBe("(async () => {\n})()");
  });

  it("calls an async arrow function, parenthesised or not", () => {
    expect(source("async () => {\n  return 5;\n}")).toBe("(async () => {return (async () => {\n  return 5;\n})();\n})()");
    expect(source("(async () => 5);")).toBe("(async () => {return ((async () => 5))();\n})()");
  });

  it("strips a markdown fence and counts the removed lines", () => {
    for (const fence of ["```js", "```ts", "```", "```javascript", "~~~"]) {
      const close = fence.startsWith("~") ? "~~~" : "```";
      const result = normaliseCode(`\n${fence}\nreturn 1\n${close}\n`);
      expect(result).toEqual({ source: "(async () => {return 1\n})()", lineOffset: 2 });
    }
  });

  it("strips TypeScript types without moving lines", () => {
    const code = "interface Quote { price: number }\nconst q: Quote = { price: 3 };\nreturn q.price as number;";
    expect(source(code)).toBe("(async () => {\nconst q = { price: 3 };\nreturn q.price ;\n})()");
  });

  it("strips types from a typed async arrow function and calls it", () => {
    expect(source("async (): Promise<number> => {\n  return 1;\n}")).toBe("(async () => {return (async () => {\n  return 1;\n})();\n})()");
  });

  it("reports a JavaScript syntax error with its line and 1-based column", () => {
    expect(syntaxError("const a = 1;\nconst b = ;\nreturn a;")).toEqual({ kind: "syntax", message: "Unexpected token", line: 2, column: 11 });
  });

  it("maps syntax error lines through a fence", () => {
    expect(syntaxError("```js\nconst a = 1;\nconst b = ;\n```")).toMatchObject({ kind: "syntax", line: 3, column: 11 });
  });

  it("reports a TypeScript syntax error at the real error, not at the first type annotation", () => {
    expect(syntaxError("const a: number = 1;\nconst b: string = ;")).toMatchObject({ kind: "syntax", line: 2 });
    expect(syntaxError("```ts\nconst a: number = 1;\nconst b = ;\n```")).toMatchObject({ kind: "syntax", line: 3 });
  });

  it("refuses import and export: there is no module loader", () => {
    expect(syntaxError('import x from "y";\nreturn x')).toMatchObject({ kind: "syntax", line: 1 });
  });
});

describe("stripFence", () => {
  it("only strips a fence that opens the text", () => {
    expect(stripFence("const s = `\n```\n`;")).toEqual({ body: "const s = `\n```\n`;", lineOffset: 0, language: "" });
  });

  it("takes the rest of the text when the closing fence is missing", () => {
    expect(stripFence("```ts\nreturn 1")).toEqual({ body: "return 1", lineOffset: 1, language: "ts" });
  });
});
