import { describe, expect, it } from "vitest";
import { draftFromRun, skillFromForm } from "@/lib/skills/skill-draft";
import { fakeTool, recordRun } from "../timeline/helpers";

const servers = [
  {
    name: "store",
    tools: [
      { name: "list_carts", inputSchema: { type: "object" } },
      { name: "place_order", inputSchema: { type: "object" }, annotations: { destructiveHint: true } },
    ],
  },
];

async function run(code: string, data?: Record<string, unknown>) {
  const host = { store: { list_carts: fakeTool(() => ({ carts: ["c1"] })), place_order: fakeTool(() => ({ orderId: "o1" })) } };
  return (await recordRun(code, () => host, data ? { data } : {})).record;
}

describe("saving a run as a skill", () => {
  it("proposes the schemas from the run's inputs and value, and marks a destructive call", async () => {
    const record = await run("const { carts } = await store.list_carts(); return await store.place_order({ cartId: carts[0], note });", { note: "hi" });
    const drafted = draftFromRun(record, servers, "first");
    if (!drafted.ok) throw new Error(drafted.message);
    expect(JSON.parse(drafted.draft.inputSchemaText)).toEqual({
      type: "object",
      properties: { note: { type: "string" } },
      required: ["note"],
      additionalProperties: false,
    });
    expect(JSON.parse(drafted.draft.outputSchemaText)).toEqual({ type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] });
    expect(drafted.draft.destructiveCalls).toEqual(["store.place_order"]);
    const made = skillFromForm(
      { name: "reorder", description: "Orders the first cart.", inputSchemaText: drafted.draft.inputSchemaText, outputSchemaText: "" },
      drafted.draft,
    );
    expect(made).toMatchObject({ ok: true, skill: { name: "reorder", destructive: true, tests: [{ name: "first", input: { note: "hi" } }] } });
    expect(made.ok && "outputSchema" in made.skill).toBe(false);
  });

  it("lists every problem of the form, the run's own inputs checked against the edited schema", async () => {
    const drafted = draftFromRun(await run("return note.length;", { note: "hi" }), servers, "t");
    if (!drafted.ok) throw new Error(drafted.message);
    const made = skillFromForm(
      { name: "9", description: " ", inputSchemaText: '{"type":"object","properties":{"note":{"type":"number"}}}', outputSchemaText: "{" },
      drafted.draft,
    );
    expect(made.ok).toBe(false);
    expect(!made.ok && made.problems).toEqual([
      expect.stringMatching(/^A skill's name is its function name/),
      "Describe what the skill does: the model chooses skills by their description.",
      "The run's own inputs do not match the input schema: Invalid arguments: arguments.note must be number",
      expect.stringMatching(/^The output schema is not JSON: /),
    ]);
  });

  it("refuses a run that failed, and a program that calls a skill", async () => {
    expect(draftFromRun(await run("throw new Error('nope')"), servers, "t")).toEqual({
      ok: false,
      message: "That run failed (Error: nope); a skill is saved from a run that worked.",
    });
    const host = { skills: { other: fakeTool(() => 1) } };
    const { record } = await recordRun("return await skills.other({});", () => host);
    expect(draftFromRun(record, servers, "t")).toEqual({
      ok: false,
      message: "That program calls skills.other, and a skill cannot call skills: save the skill's own program instead.",
    });
  });
});
