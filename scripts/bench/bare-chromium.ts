// Chromium driven over the DevTools protocol with nothing but Runtime, Page, Input and Target
// commands: no Network domain. Playwright always enables the Network domain on its pages, and
// with it every request pays for the events it reports: from the same page, a bare fetch of a
// trivial loopback route took 2.2–2.7 ms sequentially under Playwright and 1.2–1.4 ms without,
// and 1 000 of them 10 in flight 1.7 s vs 0.9–1.0 s (this machine, 2026-11-24). A person's
// browser has no such observer, so the live path is measured here (docs/speed.md,
// "The live path").
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromiumPath, CHROMIUM_ARGS } from "../../tests/e2e/chromium";
import { endWithThisProcess } from "./reap";

interface CdpMessage {
  id?: number;
  sessionId?: string;
  method?: string;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** One page (a target in its own browser context), with the few commands the bench needs. */
export interface BarePage {
  /** Runs `expression` in the page (awaiting a promise) and returns its JSON value. */
  evaluate<T>(expression: string, timeoutMs?: number): Promise<T>;
  /** Adds a script that runs before the page's own on every navigation. */
  addInitScript(source: string): Promise<void>;
  /** Navigates and resolves once the new document exists (its init scripts have run). */
  navigate(url: string): Promise<void>;
  /** Clicks the middle of the first element matching `selector`. */
  click(selector: string): Promise<void>;
  /** A key with Ctrl held (`a`, `Enter`), as a person presses it. */
  pressWithCtrl(key: "a" | "Enter"): Promise<void>;
  /** Types `text` into the focused element, as an input method would. */
  insertText(text: string): Promise<void>;
  /** Any other DevTools command on this page's session (profiling by hand). */
  command(method: string, params?: object): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface BareBrowser {
  /** A page in a fresh browser context (no cache, no storage). */
  newPage(): Promise<BarePage>;
  close(): Promise<void>;
  /** The browser process's id. */
  readonly pid: number | undefined;
}

const KEYS = { a: { code: "KeyA", keyCode: 65, commands: ["selectAll"] }, Enter: { code: "Enter", keyCode: 13, commands: [] as string[] } };

/** Launches headless Chromium with a DevTools socket and no other observer. */
export async function launchBareChromium(): Promise<BareBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), "cmp-bench-"));
  const child: ChildProcess = spawn(
    chromiumPath(),
    [...CHROMIUM_ARGS, "--headless=new", "--remote-debugging-port=0", `--user-data-dir=${profile}`, "--window-size=1440,900", "about:blank"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  // A failed or interrupted run leaves no browser behind (./reap.ts).
  const forget = endWithThisProcess(() => {
    child.kill("SIGKILL");
    rmSync(profile, { recursive: true, force: true });
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools address: ${err.slice(-500)}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`Chromium exited (${code}): ${err.slice(-500)}`)));
  });
  const socket = new WebSocket(endpoint);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve());
    socket.addEventListener("error", () => reject(new Error("could not open the DevTools socket")));
  });
  let lastId = 0;
  const pending = new Map<number, { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as CdpMessage;
    if (message.id === undefined) return;
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error.message));
    else waiter?.resolve(message.result ?? {});
  });
  const send = (method: string, params: object = {}, sessionId?: string): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = ++lastId;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });

  const newPage = async (): Promise<BarePage> => {
    const { browserContextId } = (await send("Target.createBrowserContext")) as { browserContextId: string };
    const { targetId } = (await send("Target.createTarget", { url: "about:blank", browserContextId })) as { targetId: string };
    const { sessionId } = (await send("Target.attachToTarget", { targetId, flatten: true })) as { sessionId: string };
    const on = (method: string, params: object = {}) => send(method, params, sessionId);
    // Init scripts need the Page domain; it reports lifecycle events only, nothing per request.
    await on("Page.enable");
    await on("Emulation.setDeviceMetricsOverride", { width: 1440, height: 900, deviceScaleFactor: 1, mobile: false });
    const evaluate = async <T>(expression: string, timeoutMs = 120_000): Promise<T> => {
      const reply = (await on("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true, timeout: timeoutMs })) as {
        result: { value?: T };
        exceptionDetails?: { text: string; exception?: { description?: string } };
      };
      if (reply.exceptionDetails) throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
      return reply.result.value as T;
    };
    const key = async (name: "a" | "Enter") => {
      const { code, keyCode, commands } = KEYS[name];
      const base = { key: name, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode, modifiers: 2 };
      await on("Input.dispatchKeyEvent", { type: "rawKeyDown", ...base, commands });
      await on("Input.dispatchKeyEvent", { type: "keyUp", ...base });
    };
    return {
      evaluate,
      addInitScript: async (source) => void (await on("Page.addScriptToEvaluateOnNewDocument", { source })),
      navigate: async (url) => {
        // Mark the old document, then wait for a document without the mark.
        await evaluate("window.__leaving = true");
        await on("Page.navigate", { url });
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline) {
          const arrived = await evaluate<boolean>("window.__leaving !== true && document.readyState !== 'loading'").catch(() => false);
          if (arrived) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        throw new Error(`${url} did not load within 60 s`);
      },
      click: async (selector) => {
        const box = await evaluate<{ x: number; y: number } | null>(
          `(() => { const r = document.querySelector(${JSON.stringify(selector)})?.getBoundingClientRect(); return r ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null; })()`,
        );
        if (!box) throw new Error(`nothing matches ${selector}`);
        for (const type of ["mousePressed", "mouseReleased"]) await on("Input.dispatchMouseEvent", { type, x: box.x, y: box.y, button: "left", clickCount: 1 });
      },
      pressWithCtrl: key,
      insertText: async (text) => void (await on("Input.insertText", { text })),
      command: on,
      close: async () => {
        await send("Target.closeTarget", { targetId });
        await send("Target.disposeBrowserContext", { browserContextId });
      },
    };
  };

  return {
    newPage,
    pid: child.pid,
    close: async () => {
      forget();
      socket.close();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) resolve();
        else {
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }
      });
      // Chromium's helpers may still be writing into the profile for a moment after it exits.
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      } catch {
        // A temporary directory left behind is no reason to fail the benchmark.
      }
    },
  };
}
