// Takes a screenshot of a running playground: `npx tsx scripts/screenshot.ts [url] [out.png] [--run]`.
// Used for the README's picture and to look at the UI while building it.
import { chromium } from "@playwright/test";
import { chromiumPath, CHROMIUM_ARGS } from "../tests/e2e/chromium";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const url = args[0] ?? "http://127.0.0.1:3000";
const out = args[1] ?? "docs/screenshot.png";
const run = process.argv.includes("--run");

const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
  await page.goto(url);
  await page.locator(".monaco-editor .view-lines").waitFor();
  if (run) {
    await page.getByTestId("sandbox-state").filter({ hasText: "sandbox ready" }).waitFor();
    await page.locator(".monaco-editor .view-lines").click();
    await page.keyboard.press("ControlOrMeta+Enter");
    await page.getByRole("status", { name: "Run status" }).filter({ hasNotText: /running|idle/ }).waitFor();
  }
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
