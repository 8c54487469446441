import { describe, expect, it } from "vitest";
import { destructivePolicyFor, parseCodeModeConfig } from "@/lib/codemode-mcp/config";
import { parsePlaygroundLink } from "@/lib/codemode-mcp/node/playground-push";
import { RunFeed, throttledPublisher, type FeedUpdate } from "@/lib/codemode-mcp/run-feed";
import type { RunRecord } from "@/lib/timeline/run-record";

const servers = { mcpServers: { store: { type: "http", url: "http://127.0.0.1:1/store" }, lab: { command: "node", args: ["lab.js"] } } };

describe("code-mode server config", () => {
  it("takes a plain mcp.json with defaults: ask for destructive tools, the CPU count as the cap", () => {
    const parsed = parseCodeModeConfig(JSON.stringify(servers), 4);
    expect(parsed).toMatchObject({
      ok: true,
      options: {
        defaultDestructive: "ask",
        maxConcurrent: 4,
        queueLimit: 64,
        queueWaitMs: 30_000,
        taskAfterMs: 2_000,
        callsInFlight: {},
        declarationsBudgetTokens: 4000,
        limits: {},
        mocks: {},
      },
    });
    if (parsed.ok)
      expect(parsed.servers.map((s) => [s.name, s.transport])).toEqual([
        ["store", "streamable-http"],
        ["lab", "stdio"],
      ]);
  });

  it("reads the codeMode section and applies the policy per server", () => {
    const parsed = parseCodeModeConfig(
      { ...servers, codeMode: { destructive: { store: "refuse" }, defaultDestructive: "allow", maxConcurrent: 1, queueLimit: 0, limits: { wallMs: 5000 } } },
      8,
    );
    if (!parsed.ok) throw new Error(parsed.errors.join("; "));
    expect(destructivePolicyFor(parsed.options, "store")).toBe("refuse");
    expect(destructivePolicyFor(parsed.options, "lab")).toBe("allow");
    expect(destructivePolicyFor(parsed.options, "__proto__")).toBe("allow");
    expect(parsed.options).toMatchObject({ maxConcurrent: 1, queueLimit: 0, limits: { wallMs: 5000 } });
  });

  it("every error names its path", () => {
    const parsed = parseCodeModeConfig(
      {
        ...servers,
        codeMode: {
          destructive: { store: "maybe", ghost: "allow" },
          maxConcurrent: 0,
          limits: { wallMs: "long", nope: 1 },
          mocks: { store: { x: { kind: "teleport" } } },
          extra: true,
        },
      },
      2,
    );
    expect(parsed.ok).toBe(false);
    const errors = parsed.ok ? [] : parsed.errors.join("\n");
    expect(errors).toContain('codeMode.destructive.store: must be "refuse", "allow" or "ask"');
    expect(errors).toContain("codeMode.maxConcurrent: must be positive");
    expect(errors).toContain("codeMode.limits.wallMs: must be a number");
    expect(errors).toMatch(/codeMode\.limits: .*nope/);
    expect(errors).toMatch(/codeMode\.mocks\.store\.x\.kind/);
    expect(errors).toMatch(/codeMode: .*extra/);
  });

  it("refuses a policy for a server that is not there, an empty file and broken JSON", () => {
    expect(parseCodeModeConfig({ ...servers, codeMode: { destructive: { ghost: "allow" } } }, 2)).toEqual({
      ok: false,
      errors: ["codeMode.destructive.ghost: no enabled server by that name"],
    });
    expect(parseCodeModeConfig({ mcpServers: {} }, 2)).toEqual({ ok: false, errors: ["mcpServers: no enabled server to offer"] });
    expect(parseCodeModeConfig("{ nope", 2)).toMatchObject({ ok: false, errors: [expect.stringMatching(/^not valid JSON/) as unknown] });
    expect(parseCodeModeConfig({ servers: 3 }, 2)).toMatchObject({ ok: false });
  });
});

const record = (id: string, n = 1): RunRecord => ({
  format: "code-mode-playground/run",
  version: 1,
  id,
  startedAt: "2026-11-24T00:00:00.000Z",
  events: Array.from({ length: n }, () => ({ type: "log" as const, time: 0, level: "log" as const, text: "x" })),
});

describe("run feed", () => {
  it("delivers updates, replays the recent runs to a late subscriber (latest copy, bounded), and survives a throwing listener", () => {
    const feed = new RunFeed(2);
    feed.subscribe(() => {
      throw new Error("broken");
    });
    feed.publish({ record: record("a"), done: false });
    feed.publish({ record: record("b"), done: true });
    feed.publish({ record: record("a", 2), done: true });
    feed.publish({ record: record("c"), done: true });
    const seen: FeedUpdate[] = [];
    const unsubscribe = feed.subscribe((u) => seen.push(u));
    expect(seen.map((u) => [u.record.id, u.record.events.length])).toEqual([
      ["a", 2],
      ["c", 1],
    ]);
    unsubscribe();
    feed.publish({ record: record("d"), done: true });
    expect(seen).toHaveLength(2);
  });

  it("a throttled publisher sends at most once per interval while running, and always the end", () => {
    let now = 0;
    const sent: boolean[] = [];
    const p = throttledPublisher(
      (u) => sent.push(u.done),
      () => record("r"),
      200,
      () => now,
    );
    p.tick();
    now = 50;
    p.tick();
    now = 250;
    p.tick();
    p.finish(record("r"));
    expect(sent).toEqual([false, false, true]);
  });
});

describe("--playground link", () => {
  it("takes the link npm start printed and refuses one without its token", () => {
    expect(parsePlaygroundLink("http://127.0.0.1:3000/#cmp-token=abc")).toEqual({ url: "http://127.0.0.1:3000/api/codemode/runs", token: "abc" });
    expect(() => parsePlaygroundLink("http://127.0.0.1:3000/")).toThrow(/no #cmp-token/);
    expect(() => parsePlaygroundLink("not a url")).toThrow(/--playground takes the link/);
  });
});
