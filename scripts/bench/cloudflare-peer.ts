// Cloudflare's iframe executor (@cloudflare/codemode/browser) measured in the same Chromium page
// as our worker: the harness is bundled with esbuild and injected into the bench page (CSP
// bypassed for the injection; the executor builds its own srcdoc iframe with its own policy).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser } from "@playwright/test";
import type { BenchRow } from "./rows";

const HARNESS = path.join(path.dirname(fileURLToPath(import.meta.url)), "peer", "cloudflare-harness.ts");

async function harnessScript(): Promise<string> {
  const bundled = await build({ entryPoints: [HARNESS], bundle: true, format: "iife", platform: "browser", write: false, logLevel: "silent" });
  const text = bundled.outputFiles[0]?.text;
  if (!text) throw new Error("esbuild produced no harness");
  return text;
}

/** The peer's rows, and whether our own worker's page answered while a program spun (`ourSpin`). */
export async function benchCloudflarePeer(browser: Browser, url: string, ours: { run?: number; call?: number }): Promise<BenchRow[]> {
  const script = await harnessScript();
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/bench`);
    await page.addScriptTag({ content: script });
    const peer = await page.evaluate(() =>
      (window as unknown as { __cloudflarePeer: { measure: () => Promise<{ run: number; call: number }> } }).__cloudflarePeer.measure(),
    );
    // Does the page still answer while the executor runs `while (true) {}`? Asked from outside.
    await page.evaluate(() => (window as unknown as { __cloudflarePeer: { spin: () => void } }).__cloudflarePeer.spin());
    await page.waitForTimeout(300);
    const answered = await Promise.race([page.evaluate(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 1_500))]);
    const rows: BenchRow[] = [
      { name: "peer Cloudflare iframe executor: `return 1` end to end", median: peer.run, unit: "ms", note: "30 runs, same page" },
      { name: "peer Cloudflare iframe executor: host call, 10 000 through Promise.all", median: peer.call, unit: "µs/call", note: "5 runs, same page" },
      {
        name: "peer Cloudflare iframe executor: page answers during `while (true) {}`",
        value: answered ? 1 : 0,
        unit: answered ? "(yes)" : "(no: the page froze)",
        note: "asked from outside 300 ms into the loop; the executor's own 2 s timeout ends it",
      },
    ];
    if (ours.run !== undefined) rows.push({ name: "Cloudflare ÷ ours, per run (Chromium)", value: peer.run / ours.run, unit: "×" });
    if (ours.call !== undefined) rows.push({ name: "Cloudflare ÷ ours, per host call (Chromium)", value: peer.call / ours.call, unit: "×" });
    return rows;
  } finally {
    await context.close().catch(() => undefined);
  }
}
