import { describe, expect, it } from "vitest";
import type { HostFunctions, RunEvent } from "@/lib/sandbox/types";
import { nodeEngine, run, valueOf } from "./helpers";

const engine = nodeEngine();
const host: HostFunctions = { t: { f: (args) => Promise.resolve(args) } };

/** "callId@line" for every call-start, in start order. */
async function callLines(code: string): Promise<string[]> {
  const { result, events } = await run(engine, code, { host });
  valueOf(result);
  return events.flatMap((e: RunEvent) => (e.type === "call-start" ? [`${e.callId}@${e.line ?? "?"}`] : []));
}

describe("the line that made each call (call-start.line)", () => {
  it("gives each call its own line, including calls after awaits", async () => {
    const code = ["await t.f(1);", "", "const x = await t.f(2);", "await null;", "await t.f(3);", "return x"].join("\n");
    expect(await callLines(code)).toEqual(["1@1", "2@3", "3@5"]);
  });

  it("inside Promise.all: the line of each call in the array, and of a call in a callback", async () => {
    const code = ["await Promise.all([", "  t.f(1),", "  t.f(2),", "]);", "await Promise.all([3, 4].map((i) =>", "  t.f(i)));", "return 1"].join("\n");
    expect(await callLines(code)).toEqual(["1@2", "2@3", "3@6", "4@6"]);
  });

  it("the innermost line of the person's code: inside a helper, a resumed async function, a timer, callTool", async () => {
    const code = [
      "async function get(n) {", // 1
      "  await null;", // 2
      "  return t.f(n);", // 3
      "}", // 4
      "await get(1);", // 5
      "await new Promise((resolve) => setTimeout(() => resolve(t.f(2)), 1));", // 6
      'await callTool("t", "f", 3);', // 7
      "return 1",
    ].join("\n");
    expect(await callLines(code)).toEqual(["1@3", "2@6", "3@7"]);
  });

  it("in an async arrow function the model sent", async () => {
    const code = ["async () => {", "  const a = await t.f(1);", "  return t.f(a);", "}"].join("\n");
    expect(await callLines(code)).toEqual(["1@2", "2@3"]);
  });

  it("in TypeScript: the line as written, types and all", async () => {
    const code = [
      "interface Item {", // 1
      "  id: number;", // 2
      "}", // 3
      "const item: Item = { id: 1 };", // 4
      "const got = (await t.f(item)) as Item;", // 5
      "return await t.f<number>(got.id);", // 6
    ].join("\n");
    expect(await callLines(code)).toEqual(["1@5", "2@6"]);
  });

  it("in fenced input: lines count from the top of the text, fence and blank lines included", async () => {
    const code = ["", "", "```ts", "const n: number = 2;", "await t.f(n);", "return await t.f(n + 1);", "```", ""].join("\n");
    expect(await callLines(code)).toEqual(["1@5", "2@6"]);
  });

  it("the person's code cannot break the capture by replacing the built-ins it uses", async () => {
    const code = [
      "String.prototype.indexOf = () => { throw new Error('indexOf'); };",
      "String.prototype.substring = () => { throw new Error('substring'); };",
      "Function.prototype.call = () => { throw new Error('call'); };",
      "globalThis.parseInt = () => 99;",
      "globalThis.Error = function () { return { stack: '(code.js:42:1)' }; };",
      "return await t.f(6)",
    ].join("\n");
    expect(await callLines(code)).toEqual(["1@6"]);
  });
});
