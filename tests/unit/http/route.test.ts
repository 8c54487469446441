/** The one route wrapper (lib/http/server/route.ts): an unexpected error is logged under a reference the client gets, and nothing of it reaches the client. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { route } from "@/lib/http/server/route";
import { parseRouteErrorBody, RouteError } from "@/lib/http/route-error";

afterEach(() => vi.restoreAllMocks());

const env = () => ({});
const get = (path: string) => new Request(`http://127.0.0.1:3000${path}`, { headers: { host: "127.0.0.1:3000" } });

describe("route", () => {
  it("an unexpected error: the client gets internal:* with a reference and no detail; the log gets the error under that reference, without the query", async () => {
    const logged: unknown[][] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args));
    const handler = route({ surface: "share", env }, () => {
      throw new Error("boom while reading sk-live-SECRET-123");
    });
    const response = await handler(get("/api/share?api_key=sk-live-SECRET-123"), undefined);
    expect(response.status).toBe(500);
    const reference = response.headers.get("x-request-id") ?? "";
    expect(reference).toMatch(/^[0-9a-f]{8}$/);
    const body = parseRouteErrorBody(await response.text());
    expect(body?.code).toBe("internal:share");
    expect(body?.message).toContain(`reference ${reference}`);
    expect(body?.message).not.toContain("SECRET");
    expect(logged).toHaveLength(1);
    const line = logged[0] ?? [];
    expect(String(line[0])).toBe(`[${reference}] GET /api/share failed:`);
    expect(String(line[0])).not.toContain("api_key");
    expect(line[1]).toBeInstanceOf(Error);
  });

  it("a RouteError is answered as itself and not logged", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const handler = route({ surface: "share", env }, () => {
      throw new RouteError("not_found:share", "No such link.");
    });
    const response = await handler(get("/api/share/x"), undefined);
    expect(response.status).toBe(404);
    expect(parseRouteErrorBody(await response.text())).toEqual({ code: "not_found:share", message: "No such link." });
    expect(spy).not.toHaveBeenCalled();
  });

  it("parseRouteErrorBody reads text or values and refuses anything else", () => {
    expect(parseRouteErrorBody('{"error":{"code":"a:b","message":"m","cause":"c"}}')).toEqual({ code: "a:b", message: "m", cause: "c" });
    expect(parseRouteErrorBody({ error: { code: "a:b", message: "m" } })).toEqual({ code: "a:b", message: "m" });
    for (const bad of ["", "not json", "{}", '{"error":"x"}', '{"error":{"code":1,"message":"m"}}', null, 3]) expect(parseRouteErrorBody(bad)).toBeUndefined();
  });
});
