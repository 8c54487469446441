/** Schema lint: each check on the schemas that trigger it, and silence where it should be silent. */
import { describe, expect, it } from "vitest";
import { lintTools, type LintFinding } from "../../../lib/codemode/schema-lint";
import type { ToolDefinition } from "../../../lib/codemode/types";
import { loadAdversarial, loadServer } from "./helpers";

const codes = (findings: LintFinding[], tool: string) => findings.filter((f) => f.tool === tool).map((f) => `${f.severity} ${f.code}`);

describe("lintTools", () => {
  it("finds nothing to say about a well-made tool", () => {
    const tool: ToolDefinition = {
      name: "quote",
      description: "Price a parcel.",
      inputSchema: { type: "object", properties: { kg: { type: "number", description: "Weight in kg" } }, required: ["kg"], additionalProperties: false },
      outputSchema: { type: "object", properties: { eur: { type: "number" } }, required: ["eur"] },
    };
    expect(lintTools([{ name: "shipping", tools: [tool] }])).toEqual([]);
  });

  it("reports a real server's gaps with a fix each", () => {
    const findings = lintTools([loadServer("everything")]);
    expect(findings.filter((f) => f.tool === "get-resource-reference")).toEqual([
      {
        server: "everything",
        tool: "get-resource-reference",
        severity: "warning",
        code: "missing-output-schema",
        message: "No outputSchema: the code gets `unknown` and must inspect each result before using it.",
        fix: "Declare an outputSchema and return the same data as structuredContent.",
      },
      {
        server: "everything",
        tool: "get-resource-reference",
        severity: "warning",
        code: "missing-property-description",
        paths: ["input.resourceType"],
        message: "1 input property has no description: input.resourceType.",
        fix: "Describe each property: its meaning, unit and accepted values.",
      },
      {
        server: "everything",
        tool: "get-resource-reference",
        severity: "info",
        code: "strict-additional-properties",
        paths: ["input"],
        message: "additionalProperties is not false at input; OpenAI strict mode requires it on every object.",
        fix: 'Set "additionalProperties": false on every object schema.',
      },
    ]);
    expect(codes(findings, "get-structured-content")).toEqual(["info strict-additional-properties"]);
    for (const f of findings) expect(f.fix).toMatch(/^[^\n]+\.$/);
  });

  it("reports each kind of problem in the adversarial schemas", () => {
    const findings = lintTools(loadAdversarial());
    expect(codes(findings, "empty")).toEqual(["error invalid-input-schema", "warning missing-tool-description", "warning missing-output-schema"]);
    expect(codes(findings, "not_an_object_root")).toContain("error invalid-input-schema");
    expect(codes(findings, "big_enum")).toContain("warning huge-enum");
    expect(codes(findings, "deep")).toContain("warning deep-nesting");
    expect(codes(findings, "wide")).not.toContain("warning deep-nesting");
    expect(codes(findings, "boolean_props")).toContain("warning schema-less-property");
    expect(findings.find((f) => f.tool === "boolean_props" && f.code === "schema-less-property")?.paths).toEqual(["input.anything", "input.blank"]);
    expect(findings.filter((f) => f.tool === "refs" && f.code === "broken-ref").map((f) => f.message)).toEqual([
      'External $ref "https://example.com/schema.json" at input.remote: typed as unknown.',
      'Unresolvable $ref "#/definitions/Nope" at input.missing: typed as unknown.',
    ]);
    expect(findings.find((f) => f.tool === "combinators" && f.code === "strict-unsupported-keyword")?.message).toBe(
      "Keywords OpenAI strict mode rejects: oneOf, allOf (at input.shape, input.merged, input.clash).",
    );
    expect(findings.find((f) => f.tool === "combinators" && f.code === "strict-missing-type")?.paths).toEqual(["input.either", "input.typed_branches"]);
    expect(findings.find((f) => f.tool === "collections" && f.code === "strict-unsupported-keyword")?.paths).toEqual(["input.headers"]);
  });

  it("reports name collisions for tools and for servers", () => {
    const findings = lintTools(loadAdversarial()).filter((f) => f.code === "name-collision");
    expect(findings.map((f) => `${f.server}/${f.tool ?? ""}: ${f.message}`)).toEqual([
      'odd names!/get-quote: Called as `get_quote_3`: "get-quote" collides with "get_quote", "get quote", "get.quote" after sanitising to `get_quote`.',
      'odd names!/get.quote: Called as `get_quote_4`: "get.quote" collides with "get_quote", "get quote", "get-quote" after sanitising to `get_quote`.',
      'odd names!/get quote: Called as `get_quote_2`: "get quote" collides with "get_quote", "get-quote", "get.quote" after sanitising to `get_quote`.',
      'odd names!/get_quote: Called as `get_quote`: "get_quote" collides with "get quote", "get-quote", "get.quote" after sanitising to `get_quote`.',
      'my-server/: Server name becomes `my_server_2`: it collides with "my server" after sanitising to `my_server`.',
      'my server/: Server name becomes `my_server`: it collides with "my-server" after sanitising to `my_server`.',
    ]);
  });

  it("follows $ref once, so cycles end", () => {
    const findings = lintTools(loadAdversarial());
    expect(findings.find((f) => f.tool === "cycle" && f.code === "missing-property-description")?.paths).toEqual([
      "input.a",
      "input.a.b",
      "input.a.b.weight",
      "input.a.label",
    ]);
  });

  it("honours its thresholds", () => {
    const tool: ToolDefinition = {
      name: "t",
      description: "d",
      inputSchema: {
        type: "object",
        properties: { a: { type: "object", description: "a", properties: { b: { type: "string", enum: ["x", "y", "z"], description: "b" } } } },
      },
      outputSchema: { type: "object" },
    };
    const strictCodes = (f: LintFinding[]) => f.map((x) => x.code).filter((c) => !c.startsWith("strict"));
    expect(strictCodes(lintTools([{ name: "s", tools: [tool] }]))).toEqual([]);
    expect(strictCodes(lintTools([{ name: "s", tools: [tool] }], { maxEnumMembers: 2, maxObjectDepth: 1 }))).toEqual(["huge-enum", "deep-nesting"]);
  });
});
