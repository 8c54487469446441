/**
 * The short-link routes as a test drives them: a fresh share folder for each test
 * (`CMP_SHARE_DIR`), and the browser's client with its requests answered by the route handlers.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, vi } from "vitest";
import * as createRoute from "@/app/api/share/route";
import * as getRoute from "@/app/api/share/[id]/route";
import { createShareClient, type ShareClient } from "@/lib/share/browser/api-client";
import { setShortLinkRuntime } from "@/lib/share/server/short-link-runtime";

export const ORIGIN = "http://localhost:3000";

/** Gives every test of the file its own share folder; returns where the current one is. */
export function shareDirPerTest(prefix: string): () => string {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
    vi.stubEnv("CMP_SHARE_DIR", dir);
    setShortLinkRuntime(undefined);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    setShortLinkRuntime(undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  return () => dir;
}

/** The browser's short-link client, its requests answered by the route handlers as the page's origin. */
export function routesClient(): ShareClient {
  return createShareClient((input, init) => {
    const request = new Request(new URL(input, ORIGIN), init);
    const match = /^\/api\/share\/([^/]+)$/.exec(new URL(request.url).pathname);
    return match
      ? getRoute.GET(request, { params: Promise.resolve({ id: decodeURIComponent(match[1] ?? "") }) })
      : createRoute.POST(new Request(request, { headers: { ...Object.fromEntries(request.headers), origin: ORIGIN } }), undefined);
  });
}
