import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { descendants, stillRunning } from "../../fixtures/processes";

const root = new URL("../../..", import.meta.url).pathname;

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
  let browser = [pid, ...descendants(pid)];
  for (let i = 0; i < 50 && browser.length < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    browser = [pid, ...descendants(pid)];
  }
  expect(browser.length).toBeGreaterThan(2);
  browser.push(server);
  if (how === "SIGTERM") child.kill("SIGTERM");
  const status = await exited;
  for (let i = 0; i < 100 && stillRunning(browser).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const left = stillRunning(browser);
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
