/**
 * Every generated declaration compiles with the TypeScript compiler (strict, noEmit), as a
 * global script the way the editor loads it, and the types mean something: right calls
 * pass, wrong calls fail with the error a person would expect.
 */
import { describe, expect, it } from "vitest";
import { generateDeclarations } from "../../../lib/codemode/declarations";
import { syntheticCatalog } from "../../fixtures/schemas/synthetic-catalog";
import { compileErrors, loadAdversarial, loadCorpus } from "./helpers";

describe("declarations compile", () => {
  it("for the real corpus, without and with lib.dom", () => {
    const text = generateDeclarations(loadCorpus()).text;
    expect(compileErrors({ "tools.ts": text })).toEqual([]);
    expect(compileErrors({ "tools.ts": text }, { dom: true })).toEqual([]);
  });

  it("for the adversarial schemas", () => {
    expect(compileErrors({ "tools.ts": generateDeclarations(loadAdversarial()).text })).toEqual([]);
  });

  it("for each real and adversarial server alone", () => {
    // Alone, a namespace's shared types are chosen from its tools only: a different text.
    const files = Object.fromEntries(
      [...loadCorpus(), ...loadAdversarial()].map((server, i) => [`s${i}.ts`, `${generateDeclarations([server]).text}\nexport {};`]),
    );
    expect(compileErrors(files)).toEqual([]);
  });

  it("for 1 000 synthetic tools", () => {
    expect(compileErrors({ "tools.ts": generateDeclarations(syntheticCatalog(1000)).text })).toEqual([]);
  });
});

describe("declarations type the calls", () => {
  const declarations = generateDeclarations(loadCorpus()).text;
  const check = (body: string): string[] =>
    compileErrors({ "tools.ts": declarations, "use.ts": `async function program() {\n${body}\n}\nexport {};` }).map((e) => e.replace(/^use\.ts:\d+:\d+ /, ""));

  it("accepts calls that follow the schemas and types their results", () => {
    const body = `
      const graph = await memory.read_graph();
      const names: string[] = graph.entities.map((e) => e.name);
      const [weather, file] = await Promise.all([
        everything.get_structured_content({ location: "Chicago" }),
        filesystem.read_text_file({ path: "/tmp/a", head: 3 }),
      ]);
      const t: number = weather.temperature;
      const c: string = file.content;
      await everything.get_env();
      await everything.get_resource_links();
      await sequential_thinking.sequentialthinking({ thought: "x", nextThoughtNeeded: true, thoughtNumber: 1, totalThoughts: 2 });
      return { names, t, c };`;
    expect(check(body)).toEqual([]);
  });

  it("rejects a missing required property", () => {
    expect(check(`await filesystem.write_file({ path: "/a" });`)).toEqual([
      `Argument of type '{ path: string; }' is not assignable to parameter of type '{ path: string; content: string; }'.\n  Property 'content' is missing in type '{ path: string; }' but required in type '{ path: string; content: string; }'.`,
    ]);
  });

  it("rejects a value outside an enum", () => {
    expect(check(`await everything.get_structured_content({ location: "Paris" });`)).toEqual([
      `Type '"Paris"' is not assignable to type '"New York" | "Chicago" | "Los Angeles"'.`,
    ]);
  });

  it("makes an undeclared result unknown, so it must be inspected first", () => {
    expect(check(`const r = await everything.echo({ message: "hi" }); r.length;`)).toEqual([`'r' is of type 'unknown'.`]);
  });

  it("rejects a function that does not exist", () => {
    expect(check(`await memory.drop_graph();`)).toEqual([`Property 'drop_graph' does not exist on type 'typeof memory'.`]);
  });
});
