// Takes a screenshot of a running playground: `npx tsx scripts/screenshot.ts [url] [out.png] [--run | --demo] [--size 1280x720]`.
// --run runs the editor's code first; --demo asks the offline demo model an example question,
// runs its code and opens the timeline (the README's picture).
import { chromium, type Page } from "@playwright/test";
import { chromiumPath, CHROMIUM_ARGS } from "../tests/e2e/chromium";

const sizeAt = process.argv.indexOf("--size");
const [width = 1440, height = 860] = sizeAt > 0 ? (process.argv[sizeAt + 1] ?? "").split("x").map(Number) : [];
const args = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--size");
const url = args[0] ?? "http://127.0.0.1:3000";
const out = args[1] ?? "docs/screenshot.png";

async function runEditor(page: Page): Promise<void> {
  await page.getByTestId("sandbox-state").filter({ hasText: "sandbox ready" }).waitFor();
  await page.locator(".monaco-editor .view-lines").click();
  await page.keyboard.press("ControlOrMeta+Enter");
  await page
    .getByRole("status", { name: "Run status" })
    .filter({ hasNotText: /running|idle/ })
    .waitFor();
}

async function demoSession(page: Page): Promise<void> {
  await page.getByTestId("server-status-shipping").filter({ hasText: "connected" }).waitFor({ timeout: 30_000 });
  const chat = page.getByRole("region", { name: "Chat" });
  await chat.getByRole("button", { name: /cheapest to ship 2 kg from DE to US/ }).click();
  const waiting = page.getByRole("alert", { name: "Model code waiting" });
  await waiting.waitFor({ timeout: 30_000 });
  await waiting.getByRole("button", { name: "Run" }).click();
  await page.getByRole("status", { name: "Run status" }).filter({ hasText: "ok" }).waitFor({ timeout: 30_000 });
  await chat
    .getByRole("log", { name: "Conversation" })
    .getByText(/cheapest/i)
    .last()
    .waitFor({ timeout: 30_000 });
  await page.getByRole("tab", { name: "Timeline" }).click();
  await page.waitForTimeout(500);
}

const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(url);
  await page.getByTestId("sandbox-state").filter({ hasText: "sandbox ready" }).waitFor({ timeout: 30_000 });
  // Monaco loads when a person comes to the editor (components/editor/): point at it.
  await page.getByRole("region", { name: "Editor" }).locator(".panel-body").hover();
  await page.locator(".monaco-editor .view-lines").waitFor({ timeout: 30_000 });
  if (process.argv.includes("--run")) await runEditor(page);
  if (process.argv.includes("--demo")) await demoSession(page);
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
