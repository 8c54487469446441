import { expect, type Page } from "@playwright/test";

/** Page object for the Skills tab of the left panel (docs/agents.md, "Skills"). */
export function skillsTab(page: Page) {
  const servers = page.getByRole("region", { name: "Servers" });
  return {
    root: servers,
    async open() {
      await servers.getByRole("tab", { name: /^Skills/ }).click();
    },
    skill: (name: string) => servers.getByRole("button", { name: new RegExp(`^skills\\.${name}`) }),
  };
}

/** Saves the editor's newest good run as a skill through the Save as skill dialog (opened unless it is), as a person does. */
export async function saveRunAsSkill(page: Page, name: string, description: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: "Save as skill" });
  if (!(await dialog.isVisible())) await page.getByRole("button", { name: "Save as skill…", exact: true }).click();
  await dialog.getByRole("textbox", { name: "Skill name" }).fill(name);
  await dialog.getByRole("textbox", { name: "Skill description" }).fill(description);
  await dialog.getByRole("button", { name: "Save skill" }).click();
  await expect(dialog.getByRole("status")).toContainText(`Saved skills.${name}`);
  await dialog.getByRole("button", { name: "Done" }).click();
}
