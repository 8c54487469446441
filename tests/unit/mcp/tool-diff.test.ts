import { describe, expect, it } from "vitest";
import { diffTools, isEmptyDiff } from "@/lib/mcp/tool-diff";

const schema = (props: Record<string, unknown>) => ({ type: "object", properties: props });

describe("diffTools", () => {
  it("names added, removed and changed tools in a stable (sorted) order", () => {
    const before = [
      { name: "zeta", description: "z", inputSchema: schema({}) },
      { name: "alpha", description: "a", inputSchema: schema({ q: { type: "string" } }) },
      { name: "gone", inputSchema: schema({}) },
      { name: "same", description: "s", inputSchema: schema({}) },
    ];
    const after = [
      { name: "same", description: "s", inputSchema: schema({}) },
      { name: "new-b", inputSchema: schema({}) },
      { name: "alpha", description: "a", inputSchema: schema({ q: { type: "number" } }) },
      { name: "new-a", inputSchema: schema({}) },
      { name: "zeta", description: "z, now longer", inputSchema: schema({}) },
    ];
    expect(diffTools(before, after)).toEqual({ added: ["new-a", "new-b"], removed: ["gone"], changed: ["alpha", "zeta"] });
  });

  it("counts output schema, title and annotation changes, not key order", () => {
    const base = { name: "t", inputSchema: { type: "object", properties: { a: { type: "string" } } } };
    const reordered = { name: "t", inputSchema: { properties: { a: { type: "string" } }, type: "object" } };
    expect(isEmptyDiff(diffTools([base], [reordered]))).toBe(true);
    expect(diffTools([base], [{ ...base, outputSchema: { type: "object" } }]).changed).toEqual(["t"]);
    expect(diffTools([base], [{ ...base, title: "T" }]).changed).toEqual(["t"]);
    expect(diffTools([base], [{ ...base, annotations: { destructiveHint: true } }]).changed).toEqual(["t"]);
  });

  it("is empty for equal lists", () => {
    expect(diffTools([], [])).toEqual({ added: [], removed: [], changed: [] });
  });
});
