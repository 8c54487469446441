/** Name sanitising and collision handling. */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveNames, sanitiseIdentifier } from "../../../lib/codemode/names";
import type { ServerTools } from "../../../lib/codemode/types";

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });

describe("sanitiseIdentifier", () => {
  it.each([
    ["get_quote", "get_quote"],
    ["get-quote", "get_quote"],
    ["get.quote", "get_quote"],
    ["get quote", "get_quote"],
    ["get -- quote", "get_quote"],
    ["2fa", "_2fa"],
    ["class", "class_"],
    ["delete", "delete_"],
    ["await", "await_"],
    ["eval", "eval_"],
    ["undefined", "undefined_"],
    ["créer", "creer"],
    ["naïve-café", "naive_cafe"],
    ["$ref", "$ref"],
    ["a/b:c", "abc"],
    ["🚀", "_"],
    ["", "_"],
  ])("%j → %j", (input, expected) => {
    expect(sanitiseIdentifier(input)).toBe(expected);
  });

  it("keeps namespaces off global values, not tool names", () => {
    expect(sanitiseIdentifier("console", true)).toBe("console_");
    // A namespace or tool named then would make its object a thenable: awaiting it would call the tool.
    expect(sanitiseIdentifier("then")).toBe("then_");
    expect(sanitiseIdentifier("then", true)).toBe("then_");
    expect(sanitiseIdentifier("toJSON")).toBe("toJSON_");
    expect(sanitiseIdentifier("JSON", true)).toBe("JSON_");
    expect(sanitiseIdentifier("console")).toBe("console");
    expect(sanitiseIdentifier("shipping", true)).toBe("shipping");
  });

  it("keeps namespaces off every global value TypeScript's ES libs declare", () => {
    // The sandbox has ES globals only; a namespace with the same name would not compile.
    const require = createRequire(import.meta.url);
    const libDir = path.dirname(require.resolve("typescript/lib/lib.es5.d.ts"));
    const globals = new Set<string>();
    for (const file of readdirSync(libDir).filter((f) => /^lib\.es(5|20\d\d|next)(\.[a-z0-9]+)*\.d\.ts$/.test(f) && !f.includes("full"))) {
      const text = readFileSync(path.join(libDir, file), "utf8");
      for (const m of text.matchAll(/^declare (?:var|const|let|function|namespace) ([A-Za-z_$][\w$]*)/gm)) if (m[1]) globals.add(m[1]);
    }
    expect(globals.size).toBeGreaterThan(50);
    const clashing = [...globals].filter((g) => sanitiseIdentifier(g, true) === g);
    expect(clashing).toEqual([]);
  });
});

describe("resolveNames", () => {
  it("gives the exact name to its owner and numbered names to the rest, sorted by original", () => {
    const servers: ServerTools[] = [{ name: "s", tools: [tool("get.quote"), tool("get-quote"), tool("get_quote"), tool("get_quote_2")] }];
    const { tools, collisions } = resolveNames(servers);
    // get_quote_2 is taken by a real tool, so the second sanitised name skips to _3.
    expect(tools).toEqual([["get_quote_4", "get_quote_3", "get_quote", "get_quote_2"]]);
    expect(collisions).toEqual([
      {
        kind: "tool",
        server: "s",
        identifier: "get_quote",
        resolved: [
          { original: "get_quote", sanitised: "get_quote" },
          { original: "get-quote", sanitised: "get_quote_3" },
          { original: "get.quote", sanitised: "get_quote_4" },
        ],
      },
    ]);
  });

  it("is the same whatever order the tools come in", () => {
    const names = ["a-b", "a.b", "a b", "x", "a_b_2"];
    const forward = resolveNames([{ name: "s", tools: names.map(tool) }]);
    const backward = resolveNames([{ name: "s", tools: [...names].reverse().map(tool) }]);
    const map = (r: typeof forward) => Object.fromEntries(r.names.map((n) => [n.original, n.sanitised]));
    expect(map(backward)).toEqual(map(forward));
    expect(backward.collisions).toEqual(forward.collisions);
  });

  it("numbers duplicate originals in listing order", () => {
    const { tools, collisions } = resolveNames([{ name: "s", tools: [tool("dup"), tool("dup")] }]);
    expect(tools).toEqual([["dup", "dup_2"]]);
    expect(collisions[0]?.resolved).toEqual([
      { original: "dup", sanitised: "dup" },
      { original: "dup", sanitised: "dup_2" },
    ]);
  });

  it("resolves server collisions and maps every name", () => {
    const servers: ServerTools[] = [
      { name: "my-server", tools: [tool("a")] },
      { name: "my server", tools: [tool("a")] },
    ];
    const { servers: ids, names, collisions } = resolveNames(servers);
    expect(ids).toEqual(["my_server_2", "my_server"]);
    expect(collisions).toHaveLength(1);
    expect(names).toEqual([
      { kind: "server", server: "my-server", original: "my-server", sanitised: "my_server_2" },
      { kind: "tool", server: "my-server", original: "a", sanitised: "a" },
      { kind: "server", server: "my server", original: "my server", sanitised: "my_server" },
      { kind: "tool", server: "my server", original: "a", sanitised: "a" },
    ]);
  });
});
