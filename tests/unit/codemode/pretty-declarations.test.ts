import { describe, expect, it } from "vitest";
import { generateDeclarations } from "@/lib/codemode";
import { prettyDeclarations } from "@/lib/codemode/pretty-declarations";

describe("pretty declarations", () => {
  it("indents the generator's compact text by brace depth, ignoring braces in strings and comments", () => {
    const { text } = generateDeclarations([
      {
        name: "shipping",
        tools: [
          {
            name: "get_quote",
            description: "Quote a price. Braces in docs: { not a block }.",
            inputSchema: {
              type: "object",
              properties: {
                carrier: { type: "string", description: "Carrier id" },
                mode: { enum: ["a{", "b}"] },
                dims: { type: "object", properties: { l: { type: "number" } } },
              },
              required: ["carrier"],
            },
          },
        ],
      },
    ]);
    const pretty = prettyDeclarations(text);
    expect(pretty.split("\n")[0]).toBe("declare namespace shipping {");
    expect(pretty).toContain("\n  /** Quote a price. Braces in docs: { not a block }.\n");
    expect(pretty).toContain("\n  function get_quote(input:{\n");
    expect(pretty).toContain("\n    carrier:string;\n");
    expect(pretty).toContain('\n    mode?:"a{"|"b}";\n');
    expect(pretty).toContain("\n  }):Promise<unknown>;\n");
    expect(pretty.trimEnd().endsWith("\n}")).toBe(true);
    // Only whitespace changed.
    expect(pretty.replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));
  });

  it("keeps multi-line comments aligned and never indents below zero", () => {
    expect(prettyDeclarations("declare namespace a{\n/**\n* one\n*/\nfunction f():Promise<unknown>;\n}\n}")).toBe(
      "declare namespace a {\n  /**\n   * one\n   */\n  function f():Promise<unknown>;\n}\n}",
    );
  });
});
