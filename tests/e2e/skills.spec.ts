import { readFileSync } from "node:fs";
import { expect, test, type Page } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ChatPanel } from "./pages/chat-panel";
import { TimelinePanel } from "./pages/timeline-panel";
import { saveRunAsSkill, skillsTab } from "./pages/skills-tab";
import { examplePrompt } from "@/lib/model/demo/demo-script";
import { SHIPPING_SCRIPTS } from "@/lib/model/demo/scripts-shipping";

// Skills (docs/agents.md, "Skills"): a program that worked, kept as a typed, tested tool.
const WITH_INPUT = (SHIPPING_SCRIPTS[0]?.code ?? "").replace("o.maxDays <= 5", "o.maxDays <= maxDays");
const CALL = "return await skills.cheapest_carrier({ maxDays: 5 });";

/** Runs the shipping example from the chat, gives its program an input, runs it and saves it as a skill. */
async function saveShippingSkill(page: Page, playground: PlaygroundPage): Promise<void> {
  const chat = new ChatPanel(page);
  await chat.setStepMode(false);
  await chat.send(examplePrompt("shipping", 0));
  await expect(chat.conversation).toContainText("SwiftAir Express", { timeout: 20_000 });
  await playground.setCode(WITH_INPUT);
  // A program with an input it does not have yet fails: the input is a global it reads.
  await playground.editor.getByRole("button", { name: /^Inputs/ }).click();
  const inputs = playground.editor.getByRole("textbox", { name: "Inputs JSON" });
  await inputs.fill('{ "maxDays": 5');
  await expect(playground.editor.getByRole("alert")).toContainText("Inputs are not JSON");
  await expect(playground.runButton).toBeDisabled();
  await inputs.fill('{ "maxDays": 5 }');
  await playground.runButton.click();
  await expect(playground.status).toHaveText(/ok/);
  await playground.editor.getByRole("button", { name: "Save as skill…" }).click();
  const dialog = page.getByRole("dialog", { name: "Save as skill" });
  await expect(dialog.getByRole("textbox", { name: "Input schema" })).toHaveValue(/"maxDays": \{\s+"type": "integer"/);
  await dialog.getByRole("button", { name: "Save skill" }).click();
  await expect(dialog.getByRole("alert", { name: "Problems" })).toContainText("A skill's name is its function name");
  await saveRunAsSkill(page, "cheapest_carrier", "The cheapest carrier from DE to US within maxDays business days.");
}

test("a run becomes a skill: called from a program and from the chat, its calls nested, its test failing when its code breaks", async ({ page }) => {
  const playground = new PlaygroundPage(page);
  const timeline = new TimelinePanel(page);
  await playground.goto();
  await saveShippingSkill(page, playground);

  // A new program calls it; its inner calls sit under its call on the timeline.
  await playground.setCode(CALL);
  await playground.runButton.click();
  await expect(playground.status).toHaveText(/ok/);
  expect(await playground.valueJson()).toMatchObject({ cheapest: { carrier: "SwiftAir Express", maxDays: 4 } });
  await timeline.open();
  await expect(timeline.output.getByRole("button", { name: /^skills\.cheapest_carrier, call 1, ok/ })).toBeVisible();
  const nested = timeline.output.getByRole("button", { name: /^shipping\.\w+, inside call 1, ok/ });
  await expect(nested.first()).toBeVisible();
  expect(await nested.count()).toBeGreaterThan(3);

  // The demo model calls it from the chat.
  const chat = new ChatPanel(page);
  await chat.send('Use skills.cheapest_carrier with { "maxDays": 5 }');
  await expect(chat.conversation).toContainText("skills.cheapest_carrier returned:", { timeout: 20_000 });
  // Its card's "Show run" opens that run in the timeline, the skill's calls nested in it.
  await timeline.showOutput();
  await chat.toolCalls.last().getByRole("button", { name: "Show run" }).click();
  await expect(timeline.views.getByRole("tab", { name: /^Calls \(/ })).toHaveAttribute("aria-selected", "true");
  await expect(timeline.output.getByRole("button", { name: /^skills\.cheapest_carrier, call 1, ok/ })).toBeVisible();
  await expect(timeline.output.getByRole("button", { name: /^shipping\.\w+, inside call 1, ok/ }).first()).toBeVisible();

  // Its test replays offline and passes; broken code fails it, saying what changed.
  // The Tools tab lists it under skills; it opens in the Skills tab.
  const skills = skillsTab(page);
  await skills.root.getByRole("tab", { name: /^Tools/ }).click();
  await skills.root
    .getByRole("region", { name: "Tools of skills" })
    .getByRole("button", { name: /^cheapest_carrier/ })
    .click();
  await expect(skills.root.getByRole("tab", { name: /^Skills/ })).toHaveAttribute("aria-selected", "true");
  await expect(skills.root.getByText("declare namespace skills{")).toBeVisible();
  await skills.root.getByRole("button", { name: "Test skill" }).click();
  await expect(skills.root.getByText("tests pass")).toBeVisible();
  await skills.root.getByRole("textbox", { name: "Skill code" }).fill(WITH_INPUT.replace("o.maxDays <= maxDays", "o.maxDays <= maxDays + 3"));
  await skills.root.getByRole("button", { name: "Save code" }).click();
  await skills.root.getByRole("button", { name: "Test skill" }).click();
  await expect(skills.root.getByText("1 test fails")).toBeVisible();
  await expect(skills.root.getByRole("list", { name: "Tests" })).toContainText(
    'value.cheapest.carrier is "EuroDash"; it was "SwiftAir Express" when recorded.',
  );
});

test("a skill exports as a file and imports for review: it runs nothing until trusted", async ({ page }) => {
  const playground = new PlaygroundPage(page);
  await playground.goto();
  await saveShippingSkill(page, playground);
  const skills = skillsTab(page);
  await skills.open();
  const download = page.waitForEvent("download");
  await skills.root.getByRole("button", { name: "Export all" }).click();
  const file = await (await download).path();
  const text = readFileSync(file, "utf8");
  expect(JSON.parse(text)).toMatchObject({ format: "code-mode-playground/skills", skills: [{ name: "cheapest_carrier", tests: [{ input: { maxDays: 5 } }] }] });

  // Deleted, then imported back: held for review.
  await skills.skill("cheapest_carrier").click();
  await skills.root.getByRole("button", { name: "Delete" }).click();
  await skills.root.getByRole("button", { name: "Delete" }).click();
  await expect(skills.root.getByText("No skills yet")).toBeVisible();
  await skills.root.getByLabel("Import a skills file").setInputFiles({ name: "skills.json", mimeType: "application/json", buffer: Buffer.from(text) });
  await expect(skills.root.getByRole("status")).toContainText("Imported cheapest_carrier: read each one and trust it before it can run.");
  await expect(skills.skill("cheapest_carrier")).toContainText("review");

  // Untrusted, programs do not see it.
  await playground.setCode(CALL);
  await playground.runButton.click();
  await expect(playground.error).toContainText("skills");

  await skills.skill("cheapest_carrier").click();
  await expect(skills.root.getByRole("button", { name: "Call skill" })).toBeDisabled();
  await skills.root.getByRole("button", { name: "Trust and enable" }).click();
  await playground.runButton.click();
  await expect(playground.status).toHaveText(/ok/);
  expect(await playground.valueJson()).toMatchObject({ cheapest: { carrier: "SwiftAir Express" } });

  // Opened in the editor and run with other inputs, the run becomes the skill's second test.
  await skills.root.getByRole("button", { name: "Open in editor" }).click();
  const inputs = playground.editor.getByRole("textbox", { name: "Inputs JSON" });
  if (!(await inputs.isVisible())) await playground.editor.getByRole("button", { name: /^Inputs/ }).click();
  await expect(inputs).toHaveValue(/"maxDays": 5/);
  await inputs.fill('{ "maxDays": 9 }');
  await playground.runButton.click();
  await expect(playground.status).toHaveText(/ok/);
  await playground.editor.getByRole("button", { name: "Save as skill…" }).click();
  const dialog = page.getByRole("dialog", { name: "Save as skill" });
  await expect(dialog.getByRole("textbox", { name: "Skill name" })).toHaveValue("cheapest_carrier");
  await dialog.getByRole("button", { name: "Add as a test" }).click();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(skills.root.getByRole("list", { name: "Tests" }).getByRole("listitem")).toHaveCount(2);
  await skills.root.getByRole("button", { name: "Test skill" }).click();
  await expect(skills.root.getByText("tests pass")).toBeVisible();

  // A file that is not a skills file is refused, naming the fault.
  await skills.root.getByRole("button", { name: "← Skills" }).click();
  await skills.root.getByLabel("Import a skills file").setInputFiles({
    name: "bad.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify({ format: "code-mode-playground/skills", version: 1, skills: [{ name: "rm -rf /" }] })),
  });
  await expect(skills.root.getByRole("status")).toContainText("bad.json was refused:");
  await expect(skills.root.getByRole("status")).toContainText("skills[0].name");
});
