import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { createGuardedLookup, GUARD_REFUSED_CODE } from "@/lib/net/server/guarded-lookup";
import type { ResolveAll } from "@/lib/net/server/guarded-lookup";

const fakeDns =
  (answers: Record<string, LookupAddress[]>): ResolveAll =>
  (hostname) =>
    answers[hostname]
      ? Promise.resolve(answers[hostname])
      : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));

function lookup(resolve: ResolveAll, hostname: string, all: boolean, allowList: string[] = []) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((done) => {
    createGuardedLookup({ allowList }, resolve)(hostname, { all }, (error, address, family) => done({ error, address, family }));
  });
}

const DNS = fakeDns({
  "good.example": [
    { address: "93.184.216.34", family: 4 },
    { address: "2606:2800::1", family: 6 },
  ],
  "rebind.example": [
    { address: "93.184.216.34", family: 4 },
    { address: "169.254.169.254", family: 4 },
  ],
  "inside.example": [{ address: "10.0.0.7", family: 4 }],
  localhost: [{ address: "127.0.0.1", family: 4 }],
});

describe("guarded lookup", () => {
  it("passes public answers through, in both callback shapes", async () => {
    expect(await lookup(DNS, "good.example", false)).toEqual({ error: null, address: "93.184.216.34", family: 4 });
    expect((await lookup(DNS, "good.example", true)).address).toHaveLength(2);
  });

  it("refuses when any answer is forbidden (rebinding) or private", async () => {
    const rebind = await lookup(DNS, "rebind.example", true);
    expect(rebind.error?.code).toBe(GUARD_REFUSED_CODE);
    expect(rebind.error?.message).toContain("169.254.169.254");
    expect((await lookup(DNS, "inside.example", false)).error?.code).toBe(GUARD_REFUSED_CODE);
  });

  it("allows private answers for allow-listed names", async () => {
    expect((await lookup(DNS, "localhost", false, ["localhost"])).error).toBeNull();
  });

  it("passes resolver errors on", async () => {
    expect((await lookup(DNS, "missing.example", false)).error?.code).toBe("ENOTFOUND");
  });
});
