// What a streaming chat answer and a run from the editor cost the page's main thread (issue 30):
// the demo model's answer (six chunks) to a message in a conversation, then programs run from the
// editor beside it, measured with the DevTools Performance metrics of a bare Chromium
// (bare-chromium.ts): script and task time from the click on Send (or Ctrl+Enter) until the
// answer (or the run's value) is in and the page quiet. With BENCH_COMPARE_URL (another build, served the same way)
// both are measured interleaved in the same run, so the ratio holds on a noisy machine.
// Figures only. Run alone: `npx tsx scripts/bench/chat-stream.ts`.
import { pathToFileURL } from "node:url";
import { launchBareChromium, type BarePage } from "./bare-chromium";
import { openReady, typeCode, until } from "./live-path";
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

/** A program from the editor beside the conversation: ten sequential calls, then a value to wait for. */
const RUNS = 9;
const runCode = (i: number) => `const out = []; for (let i = 0; i < 10; i++) out.push(await lab.echo({ message: "m" + i })); return "done-${i}-" + out.length;`;

/** Main-thread cost of one run from the editor (Ctrl+Enter until its value shows and the page is quiet), typing left out. */
async function runCost(page: BarePage, i: number): Promise<{ script: number; task: number }> {
  const code = runCode(i);
  await typeCode(page, code);
  await page.evaluate("new Promise((resolve) => setTimeout(resolve, 400))");
  const before = await metrics(page);
  await page.pressWithCtrl("Enter");
  await page.evaluate(until(`(document.querySelector('section[aria-label="Output"]')?.textContent ?? "").includes("done-${i}-10")`, 20_000), 25_000);
  await page.evaluate("new Promise((resolve) => setTimeout(resolve, 400))");
  const after = await metrics(page);
  return { script: ((after.ScriptDuration ?? 0) - (before.ScriptDuration ?? 0)) * 1000, task: ((after.TaskDuration ?? 0) - (before.TaskDuration ?? 0)) * 1000 };
}

interface Samples {
  script: number[];
  task: number[];
  runScript: number[];
  runTask: number[];
}

/** Main-thread script and task milliseconds per streamed answer, then per run from the editor beside that conversation. */
async function sample(url: string): Promise<Samples> {
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
    const runScript: number[] = [];
    const runTask: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const cost = await runCost(page, i);
      runScript.push(cost.script);
      runTask.push(cost.task);
    }
    return { script, task, runScript, runTask };
  } finally {
    await browser.close();
  }
}

export async function benchChatStream(): Promise<BenchRow[]> {
  const server = await startServer();
  const compare = process.env.BENCH_COMPARE_URL;
  try {
    const ours: Samples = { script: [], task: [], runScript: [], runTask: [] };
    const theirs: Samples = { script: [], task: [], runScript: [], runTask: [] };
    // Interleaved rounds, so both builds meet the same machine.
    for (let round = 0; round < 2; round++) {
      const add = (to: Samples, from: Samples) => {
        for (const key of ["script", "task", "runScript", "runTask"] as const) to[key].push(...from[key]);
      };
      add(ours, await sample(server.url));
      if (compare) add(theirs, await sample(compare));
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
      {
        name: "script time on the page's main thread per run from the editor beside a conversation",
        median: median(ours.runScript),
        unit: "ms",
        note: `${ours.runScript.length} runs of ten sequential lab.echo calls, Ctrl+Enter to quiet (0.4 s after its value), typing left out${vs(ours.runScript, theirs.runScript)}`,
      },
      {
        name: "task time on the page's main thread per run from the editor beside a conversation",
        median: median(ours.runTask),
        unit: "ms",
        note: `script, style, layout and paint${vs(ours.runTask, theirs.runTask)}`,
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
