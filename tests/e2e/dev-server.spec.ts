/**
 * `npm run dev` (scripts/dev.mjs) serves the page's channel too (docs/channel.md, "The
 * channel"): its printed link carries the stdio token, an upgrade from the page's origin opens a
 * channel whose requests reach the dev routes, and a foreign one is refused. Node only: Next
 * compiles the routes on first use, which is slow, so the test drives the channel by hand.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../fixtures/free-port";
import { expect, test } from "./fixtures";

let dev: ChildProcess | undefined;
let link = "";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  dev = spawn(process.execPath, ["scripts/dev.mjs", "-p", String(port)], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CMP_LOCAL_TOKEN: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  link = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`npm run dev printed no link: ${out}`)), 150_000);
    dev?.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready: (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    dev?.once("exit", (code) => reject(new Error(`npm run dev exited (${code}): ${out}`)));
  });
});
test.afterAll(async () => {
  if (!dev || dev.exitCode !== null) return;
  const exited = new Promise((resolve) => dev?.once("exit", resolve));
  dev.kill("SIGTERM");
  await exited;
});

test("npm run dev prints a link with the stdio token and serves the channel; a foreign upgrade is refused", async () => {
  test.setTimeout(180_000);
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#cmp-token=[\w-]{32,}$/);
  const origin = new URL(link).origin;
  const foreign = new WebSocket(`${origin.replace("http", "ws")}/api/channel`, { headers: { origin: "https://evil.example" } } as unknown as string[]);
  await expect(new Promise((resolve) => (foreign.onerror = () => resolve("refused")))).resolves.toBe("refused");

  const ws = new WebSocket(`${origin.replace("http", "ws")}/api/channel`, { headers: { origin } } as unknown as string[]);
  const frames: Array<{ t: string; id?: number; status?: number }> = [];
  ws.onmessage = (event) => {
    if (typeof event.data === "string") frames.push(JSON.parse(event.data) as { t: string });
  };
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  ws.send(JSON.stringify({ t: "open", id: 1, method: "GET", path: "/api/chat/providers", headers: [] }));
  await expect.poll(() => frames.find((f) => f.t === "head" && f.id === 1)?.status, { timeout: 150_000 }).toBe(200);
  expect(frames[0]).toMatchObject({ t: "hello" });
  ws.close();
});
