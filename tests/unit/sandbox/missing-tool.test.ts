import { describe, expect, it } from "vitest";
import { missingToolMessage, missingToolOnLine } from "@/lib/sandbox/missing-tool";

const api = { lab: ["echo", "sleep"], shipping: ["get_quote", "list_carriers"] };

describe("the missing tool a failing line calls", () => {
  it("finds the first call of a name its namespace lacks, skipping known tools, other objects and member chains", () => {
    expect(missingToolOnLine("const [a, b] = await Promise.all([lab.echo({}), lab.ecoh({})]);", api)).toEqual({ namespace: "lab", name: "ecoh" });
    expect(missingToolOnLine("return Math.max(1, 2) + lab . sleeep ({ ms: 1 })", api)).toEqual({ namespace: "lab", name: "sleeep" });
    expect(missingToolOnLine("await other.lab.nope(); await console.logg(1)", api)).toBeUndefined();
    expect(missingToolOnLine("await shipping.get_quote({})", api)).toBeUndefined();
    expect(missingToolOnLine("await toString.call(1)", { toString: [] })).toEqual({ namespace: "toString", name: "call" });
    expect(missingToolOnLine("await constructor.x()", api)).toBeUndefined();
  });

  it("says which server, the nearest names and every name, capped", () => {
    expect(missingToolMessage("shipping", "quote", api.shipping)).toBe(
      'shipping has no tool "quote"; did you mean shipping.get_quote? Its tools: get_quote, list_carriers.',
    );
    expect(missingToolMessage("lab", "zzz", [])).toBe('lab has no tool "zzz". Its tools: none.');
    const many = Array.from({ length: 32 }, (_, i) => `t${i}`);
    expect(missingToolMessage("big", "nothing_like_it", many)).toMatch(/Its tools: t0, t1, .*, t29 and 2 more\.$/);
  });
});
