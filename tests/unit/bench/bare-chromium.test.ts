import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";

const root = new URL("../../..", import.meta.url).pathname;

/** Process id → parent id and state, from /proc. */
function processTable(): Map<number, { ppid: number; state: string }> {
  const table = new Map<number, { ppid: number; state: string }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(entry), { ppid: Number(ppid), state: state! });
    } catch {
      // Ended while we read.
    }
  }
  return table;
}

/** `pid` and every process below it. */
function family(pid: number): number[] {
  const table = processTable();
  const found = [pid];
  for (let i = 0; i < found.length; i++) for (const [child, { ppid }] of table) if (ppid === found[i]) found.push(child);
  return found;
}

/** The ones still running (a zombie has ended). */
const alive = (pids: number[]) => {
  const table = processTable();
  return pids.filter((pid) => table.has(pid) && table.get(pid)!.state !== "Z");
};

/** Starts the fixture, waits for the browser it launched and its helpers, ends it as `how` says, and returns those of its processes (the browser's, the server's) still running 10 s later. */
async function browserLeftBy(how: "throw" | "SIGTERM"): Promise<{ left: number[]; status: number | null }> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/fixtures/bench-browser-left.ts", how === "throw" ? "throw" : "wait"], {
    cwd: root,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const [pid = 0, server = 0] = await new Promise<number[]>((resolve) =>
    createInterface({ input: child.stdout }).once("line", (line) => resolve(line.split(" ").map(Number))),
  );
  expect(pid).toBeGreaterThan(0);
  expect(server).toBeGreaterThan(0);
  // Chromium's zygotes, GPU and network processes start with it.
  let browser = family(pid);
  for (let i = 0; i < 50 && browser.length < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    browser = family(pid);
  }
  expect(browser.length).toBeGreaterThan(2);
  browser.push(server);
  if (how === "SIGTERM") child.kill("SIGTERM");
  const status = await exited;
  for (let i = 0; i < 100 && alive(browser).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const left = alive(browser);
  // A failing run leaves nothing behind either.
  for (const pid of left) process.kill(pid, "SIGKILL");
  return { left, status };
}

describe.skipIf(process.platform !== "linux")("what a bench run starts (its bare Chromium, a detached server)", () => {
  it("is gone with all its processes when the bench fails with an uncaught error", async () => {
    const { left, status } = await browserLeftBy("throw");
    expect(status).toBe(1);
    expect(left).toEqual([]);
  }, 60_000);

  it("is gone with all its processes when a signal ends the bench (a timeout, Ctrl+C)", async () => {
    const { left, status } = await browserLeftBy("SIGTERM");
    expect(status).toBe(143);
    expect(left).toEqual([]);
  }, 60_000);
});
