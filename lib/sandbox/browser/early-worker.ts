/**
 * The page's first sandbox worker, started by a line of inline script at the top of the page
 * (app/page.tsx) while the page's JavaScript still loads, rather than when the page's state is
 * built: QuickJS then compiles on the worker's thread during the download, parse and hydration
 * instead of after them (docs/speed.md, "The page's start"). The script keeps the
 * worker's messages and errors until the page takes it; the page's first worker adopts it, and
 * gets those first, in order.
 */
import type { WorkerLike } from "../run-controller";

/** The global the inline script leaves the worker under, until the page takes it. */
export const EARLY_WORKER_GLOBAL = "__cmpEarlyWorker";

/** What the inline script leaves: the worker, its URL, what it said so far, and how to stop keeping it. */
interface EarlyWorker {
  url: string;
  worker: Worker;
  queued: Event[];
  stop(): void;
}

/** The inline script's text: starts a module worker at `url` and keeps its events until taken. */
export function earlyWorkerScript(url: string): string {
  const name = JSON.stringify(EARLY_WORKER_GLOBAL);
  const at = JSON.stringify(url);
  return (
    `(function(){try{var w=new Worker(${at},{type:"module"}),q=[],k=function(e){q.push(e)};` +
    `w.addEventListener("message",k);w.addEventListener("error",k);` +
    `window[${name}]={url:${at},worker:w,queued:q,stop:function(){w.removeEventListener("message",k);w.removeEventListener("error",k)}}}catch(e){}})();`
  );
}

function isEarlyWorker(value: unknown): value is EarlyWorker {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<EarlyWorker>;
  return typeof v.url === "string" && typeof v.worker?.postMessage === "function" && Array.isArray(v.queued) && typeof v.stop === "function";
}

type Listener = (event: Event) => void;

/**
 * The worker the inline script started, when it was started at `url`; once only. Its listeners
 * get the events it sent before, then the ones after, in order. A worker started at another URL
 * (a page that changed its mind) is stopped, and undefined returned.
 */
export function takeEarlyWorker(url: string, scope: Record<string, unknown> = globalThis): WorkerLike | undefined {
  const early = scope[EARLY_WORKER_GLOBAL];
  scope[EARLY_WORKER_GLOBAL] = null;
  if (!isEarlyWorker(early)) return undefined;
  early.stop();
  if (early.url !== url) {
    early.worker.terminate();
    return undefined;
  }
  const listeners: { message: Listener[]; error: Listener[] } = { message: [], error: [] };
  const emit = (event: Event) => {
    for (const listener of event.type === "error" ? listeners.error : listeners.message) listener(event);
  };
  // Until the kept events are handed over (after the caller has added its listeners, in this
  // task), new ones wait behind them.
  let pending: Event[] | undefined = [...early.queued];
  const deliver = (event: Event) => (pending ? pending.push(event) : emit(event));
  early.worker.addEventListener("message", deliver);
  early.worker.addEventListener("error", deliver);
  queueMicrotask(() => {
    const kept = pending ?? [];
    pending = undefined;
    kept.forEach(emit);
  });
  return {
    postMessage: (message) => early.worker.postMessage(message),
    addEventListener: (type: "message" | "error", listener: (event: never) => void) => void listeners[type].push(listener as Listener),
    terminate: () => early.worker.terminate(),
  };
}
