/** The page's smaller stores as plain objects: the editor (code, history, step mode), the model settings, the run limits. */
import { describe, expect, it } from "vitest";
import { EditorState } from "@/lib/playground/editor-state";
import { ModelSettings, modelChoice, requestExtras } from "@/lib/playground/model-settings";
import { RunLimits } from "@/lib/playground/run-limits";
import { SAMPLE_CODE } from "@/lib/editor/sample-code";
import { createCodeStore } from "@/lib/editor/code-store";
import { createToolCatalog } from "@/lib/codemode";
import { sleep } from "../timeline/helpers";

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const catalog = createToolCatalog([
  { name: "store", tools: [{ name: "place_order", inputSchema: { type: "object" }, annotations: { destructiveHint: true } }] },
]);

describe("EditorState", () => {
  it("restores the saved code, saves a change after the delay, and keeps what the editor held when the model's code replaces it", async () => {
    const storage = memoryStorage();
    createCodeStore(storage).save("return 'mine'");
    let now = 1_000;
    const editor = new EditorState({ codeStore: createCodeStore(storage), saveDelayMs: 5, now: () => now });
    expect(editor.snapshot().code).toBe("return 'mine'");
    editor.show("return 'model'", "call-1");
    now += 10;
    editor.show("return 'model 2'", "call-2");
    expect(editor.snapshot().history.map((e) => [e.toolCallId, e.code])).toEqual([
      ["call-2", "return 'model 2'"],
      ["call-1", "return 'model'"],
      ["before-call-1", "return 'mine'"],
    ]);
    await sleep(20);
    expect(createCodeStore(storage).load()).toBe("return 'model 2'");
    editor.reset();
    expect(editor.snapshot().code).toBe(SAMPLE_CODE);
  });

  it("step mode: Run sends what the editor holds; a newer program answers the older as skipped; Skip tells the model why", async () => {
    const editor = new EditorState();
    const first = editor.awaitApproval("return 1", "a");
    const second = editor.awaitApproval("return 2", "b");
    expect(await first).toEqual({ action: "skip", message: "Replaced by a newer call before the person decided." });
    expect(editor.snapshot().pending).toEqual({ toolCallId: "b", code: "return 2" });
    editor.setCode("return 2 + 1");
    expect(editor.approve()).toEqual({ toolCallId: "b", code: "return 2 + 1" });
    expect(await second).toEqual({ action: "run", code: "return 2 + 1" });
    expect(editor.snapshot().pending).toBeUndefined();
    expect(editor.approve()).toBeUndefined();
    const third = editor.awaitApproval("return 3", "c");
    editor.skip();
    expect(await third).toEqual({ action: "skip", message: "The person chose not to run this code." });
  });
});

describe("ModelSettings", () => {
  it("loads and saves the settings and keys in the browser's storage, and forgets the keys", () => {
    const storage = memoryStorage();
    const first = new ModelSettings(storage);
    expect(first.snapshot().loaded).toBe(false);
    first.load();
    first.update({ toolMode: "classic", maxSteps: 3 });
    first.setKey("openai", "sk-test-123");
    const second = new ModelSettings(storage);
    second.load();
    expect(second.snapshot()).toMatchObject({ loaded: true, settings: { toolMode: "classic", maxSteps: 3 }, keys: { openai: "sk-test-123" } });
    second.forgetKeys();
    const third = new ModelSettings(storage);
    third.load();
    expect(third.snapshot().keys).toEqual({});
  });

  it("the prompt in effect is the person's edit for the mode, else the generated one; step mode is on with a destructive tool until set", () => {
    const model = new ModelSettings();
    expect(modelChoice(model.snapshot(), catalog)).toMatchObject({ provider: "demo", mode: "declarations", stepMode: true, edited: false });
    expect(modelChoice(model.snapshot(), catalog).prompt).toBe(catalog.systemPrompt());
    model.savePrompt("declarations", "Be brief.");
    model.savePrompt("search", "Search first.");
    expect(modelChoice(model.snapshot(), catalog)).toMatchObject({ prompt: "Be brief.", edited: true });
    model.update({ discovery: "search", stepMode: false });
    expect(modelChoice(model.snapshot(), catalog)).toMatchObject({ mode: "search", prompt: "Search first.", stepMode: false });
    model.resetPrompt("search");
    expect(modelChoice(model.snapshot(), catalog).prompt).toBe(catalog.systemPrompt("search"));
    model.restorePrompt(2);
    expect(modelChoice(model.snapshot(), catalog).prompt).toBe("Search first.");
  });

  it("a request carries the mode's prompt, and a compare lane changes the tool mode and model only", () => {
    const model = new ModelSettings();
    model.savePrompt("declarations", "Be brief.");
    expect(requestExtras(model.snapshot(), catalog)).toMatchObject({ instructions: "Be brief.", toolMode: "code", model: { provider: "demo" } });
    const lane = requestExtras(model.snapshot(), catalog, { toolMode: "classic", provider: "openai", modelId: "gpt-test" });
    expect(lane).toMatchObject({ toolMode: "classic", model: { provider: "openai", modelId: "gpt-test" } });
    expect(lane.classicTools?.map((t) => t.name)).toEqual(["store__place_order"]);
  });
});

describe("RunLimits", () => {
  it("keeps valid limits in the browser and drops what a shared link brings that is not one", () => {
    const storage = memoryStorage();
    const limits = new RunLimits(storage);
    limits.replace({ cpuMs: 2_000 });
    expect(new RunLimits(storage).snapshot()).toEqual({ cpuMs: 2_000 });
    limits.adopt({ cpuMs: "lots", wallMs: 5_000, evil: 1 });
    expect(limits.snapshot()).toEqual({ wallMs: 5_000 });
    limits.reset();
    expect(new RunLimits(storage).snapshot()).toEqual({});
  });
});
