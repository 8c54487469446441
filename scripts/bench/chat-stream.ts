// What a streaming chat answer costs the page's main thread (issue 30): the demo model's answer
// (six chunks) to a message in a conversation, measured with the DevTools Performance metrics of
// a bare Chromium (bare-chromium.ts): script and task time from the click on Send until the
// answer is in and the page quiet. With BENCH_COMPARE_URL (another build, served the same way)
// both are measured interleaved in the same run, so the ratio holds on a noisy machine.
// Figures only. Run alone: `npx tsx scripts/bench/chat-stream.ts`.
import { pathToFileURL } from "node:url";
import { launchBareChromium, type BarePage } from "./bare-chromium";
import { openReady, until } from "./live-path";
import { median, type BenchRow } from "./rows";
import { startServer } from "./sandbox-browser";

const ANSWERS = 9;
const CONVERSATION = `document.querySelector('[role="log"][aria-label="Conversation"]')`;
const NO_STOP = `![...document.querySelectorAll('section[aria-label="Chat"] button')].some((b) => b.textContent === "Stop")`;

async function metrics(page: BarePage): Promise<Record<string, number>> {
  const result = (await page.command("Performance.getMetrics")) as { metrics: Array<{ name: string; value: number }> };
  return Object.fromEntries(result.metrics.map((m) => [m.name, m.value]));
}

/** Sends `text` as a person does and resolves once its answer is in and the page is quiet. */
async function ask(page: BarePage, text: string): Promise<void> {
  await page.click('textarea[aria-label="Message"]');
  await page.insertText(text);
  await page.click('section[aria-label="Chat"] form button[type="submit"]');
  await page.evaluate(until(`(${CONVERSATION}?.textContent ?? "").includes(${JSON.stringify(text)}) && ${NO_STOP}`, 20_000), 25_000);
  await page.evaluate("new Promise((resolve) => setTimeout(resolve, 400))");
}

/** Main-thread script and task milliseconds per streamed answer, one sample per answer. */
async function sample(url: string): Promise<{ script: number[]; task: number[] }> {
  const browser = await launchBareChromium();
  try {
    const page = await openReady(browser, url);
    await page.command("Performance.enable");
    // The load settles (Monaco, the type service), and the conversation begins.
    await page.evaluate("new Promise((resolve) => setTimeout(resolve, 3000))");
    await ask(page, "What is the weather in Paris?");
    const script: number[] = [];
    const task: number[] = [];
    for (let i = 0; i < ANSWERS; i++) {
      const before = await metrics(page);
      await ask(page, `And in city number ${i + 1}?`);
      const after = await metrics(page);
      script.push(((after.ScriptDuration ?? 0) - (before.ScriptDuration ?? 0)) * 1000);
      task.push(((after.TaskDuration ?? 0) - (before.TaskDuration ?? 0)) * 1000);
    }
    return { script, task };
  } finally {
    await browser.close();
  }
}

export async function benchChatStream(): Promise<BenchRow[]> {
  const server = await startServer();
  const compare = process.env.BENCH_COMPARE_URL;
  try {
    const ours: { script: number[]; task: number[] } = { script: [], task: [] };
    const theirs: { script: number[]; task: number[] } = { script: [], task: [] };
    // Interleaved rounds, so both builds meet the same machine.
    for (let round = 0; round < 2; round++) {
      const a = await sample(server.url);
      ours.script.push(...a.script);
      ours.task.push(...a.task);
      if (compare) {
        const b = await sample(compare);
        theirs.script.push(...b.script);
        theirs.task.push(...b.task);
      }
    }
    const vs = (mine: number[], other: number[]) =>
      compare ? `; the compared build (${compare}): ${median(other).toFixed(1)} ms (${(median(mine) / median(other)).toFixed(2)}×)` : "";
    return [
      {
        name: "script time on the page's main thread per streamed demo answer",
        median: median(ours.script),
        unit: "ms",
        note: `${ours.script.length} answers in a conversation, send to quiet (0.4 s after)${vs(ours.script, theirs.script)}`,
      },
      {
        name: "task time on the page's main thread per streamed demo answer",
        median: median(ours.task),
        unit: "ms",
        note: `script, style, layout and paint${vs(ours.task, theirs.task)}`,
      },
    ];
  } finally {
    server.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printRows } = await import("./rows");
  printRows(await benchChatStream());
}
