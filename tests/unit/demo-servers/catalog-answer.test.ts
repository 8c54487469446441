/** Offline answers for the large catalog: valid for every tool's output schema, the same on every run. */
import { describe, expect, it } from "vitest";
import { catalogAnswer, sampleValue } from "@/lib/demo-servers/catalog-answer";
import { compileSchema } from "@/lib/mcp/validate";
import { largeCatalog } from "../../fixtures/schemas/large-catalog";

const servers = largeCatalog();

describe("catalogAnswer", () => {
  it("answers every tool of the large catalog that declares an output schema with a value valid for it", () => {
    let checked = 0;
    for (const server of servers)
      for (const tool of server.tools) {
        if (!tool.outputSchema) continue;
        const compiled = compileSchema(tool.outputSchema);
        if (!compiled.ok) continue;
        const value = catalogAnswer(server.name, tool, { q: "x" });
        expect(compiled.validate(value, "result"), `${server.name}.${tool.name}`).toEqual([]);
        checked++;
      }
    expect(checked).toBeGreaterThan(20);
  });

  it("is deterministic per tool and arguments, and differs between arguments", () => {
    const tool = servers.flatMap((s) => s.tools.filter((t) => t.outputSchema).map((t) => ({ server: s.name, tool: t })))[0]!;
    expect(catalogAnswer(tool.server, tool.tool, { a: 1 })).toEqual(catalogAnswer(tool.server, tool.tool, { a: 1 }));
    const plain = { name: "list_things" };
    expect(catalogAnswer("x", plain, { a: 1 })).toEqual(catalogAnswer("x", plain, { a: 1 }));
    expect(catalogAnswer("x", plain, { a: 1 })).not.toEqual(catalogAnswer("x", plain, { a: 2 }));
    expect(catalogAnswer("x", plain, {})).toMatchObject({ server: "x", tool: "list_things", ok: true });
  });

  it("follows $defs references, ends cycles, and keeps bounds, enums, formats and required properties", () => {
    const schema = {
      type: "object",
      required: ["node", "status", "count", "when", "tags"],
      properties: {
        node: { $ref: "#/$defs/node" },
        status: { enum: ["open", "closed"] },
        count: { type: "integer", minimum: 5, maximum: 7 },
        when: { type: "string", format: "date-time" },
        tags: { type: "array", items: { type: "string", minLength: 4 }, minItems: 2, maxItems: 2 },
      },
      $defs: { node: { type: "object", required: ["child"], properties: { child: { anyOf: [{ $ref: "#/$defs/node" }, { type: "null" }] } } } },
    };
    const value = sampleValue(schema, "seed");
    const compiled = compileSchema(schema);
    if (!compiled.ok) throw new Error(compiled.message);
    expect(compiled.validate(value, "value")).toEqual([]);
    expect(value).toMatchObject({ status: expect.stringMatching(/^(open|closed)$/) as unknown, tags: [expect.any(String), expect.any(String)] });
  });
});
