/**
 * Node's `http` request and response as Fetch's `Request` and `Response` (Node only), so that a
 * Fetch-style handler (`(Request) => Promise<Response>`, the shape of a Next route handler) can
 * answer on a plain `http.Server`: the loopback servers of tests, and the production server's
 * demo routes (docs/speed.md, "The live path").
 */
import type http from "node:http";
import { Readable } from "node:stream";

/** Fetch-style handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** The Fetch Request for `req`; `signal` aborts when the client goes away. */
export function toFetchRequest(req: http.IncomingMessage, base: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.headers["content-length"] !== undefined ? req.headers["content-length"] !== "0" : req.headers["transfer-encoding"] !== undefined;
  const init: RequestInit & { duplex?: "half" } = { method: req.method ?? "GET", headers, signal };
  if (hasBody) {
    init.body = Readable.toWeb(req);
    init.duplex = "half";
  }
  return new Request(new URL(req.url ?? "/", base), init);
}

/** Writes `response` to `res`, streaming its body; `extraHeaders` are set first, so the response's own win. */
export async function writeFetchResponse(response: Response, res: http.ServerResponse, extraHeaders: Readonly<Record<string, string>> = {}): Promise<void> {
  const headers: Record<string, string> = { ...extraHeaders };
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

/**
 * Answers `req` with `handler`: aborts the request's signal when the client leaves early, and
 * turns a throw into a bare 500 (an error's text may quote request data).
 */
export function serveFetch(
  handler: FetchHandler,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: { base: string; extraHeaders?: Readonly<Record<string, string>> },
): void {
  const aborter = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) aborter.abort();
  });
  handler(toFetchRequest(req, options.base, aborter.signal))
    .then((response) => writeFetchResponse(response, res, options.extraHeaders))
    .catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy(error instanceof Error ? error : undefined);
        return;
      }
      res.writeHead(500, { "content-type": "text/plain" });
      res.end("The server could not handle this request.");
    });
}
