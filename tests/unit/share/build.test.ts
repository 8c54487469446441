import { describe, expect, it } from "vitest";
import { buildShareState } from "@/lib/share/build";
import { SHARE_CAPS } from "@/lib/share/caps";
import type { ServerConfig } from "@/lib/mcp/types";
import { toShareServer } from "@/lib/share/server-to-share";
import { toServerInput } from "@/lib/share/restore";
import { shareServerSchema, shareStateSchema } from "@/lib/share/schema";

const demo: ServerConfig = { id: "shipping", name: "shipping", transport: "streamable-http", url: "/api/demo-mcp/shipping", headers: {}, enabled: true };

describe("buildShareState", () => {
  it("copies exactly the allow-listed fields of real inputs", () => {
    const { state, omitted } = buildShareState({
      servers: [demo],
      toolSnapshots: [
        {
          name: "shipping",
          tools: [{ name: "get_quote", title: "Quote", description: "Price.", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }],
        },
      ],
      systemPrompt: "Write code.",
      model: { provider: "anthropic", id: "claude-sonnet-4-5" },
      messages: [
        { id: "a", role: "user", parts: [{ type: "text", text: "hi" }, { notAPart: true }, { type: "data-inspector", data: { request: { body: "…" } } }] },
        { id: "b", role: "tool", parts: [] },
      ],
      code: "return 1;",
      limits: { wallMs: 5_000, maxCalls: 2.5, cpuMs: -1 },
      runs: [{ code: "return 1;", calls: [] }, "not a run"],
    });
    expect(state).toEqual({
      version: 1,
      servers: [{ name: "shipping", transport: "streamable-http", url: "/api/demo-mcp/shipping", hadSecrets: false, secrets: [] }],
      tools: [
        {
          server: "shipping",
          tools: [{ name: "get_quote", title: "Quote", description: "Price.", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }],
        },
      ],
      systemPrompt: "Write code.",
      model: { provider: "anthropic", id: "claude-sonnet-4-5" },
      messages: [{ id: "a", role: "user", parts: [{ type: "text", text: "hi" }] }],
      code: "return 1;",
      limits: { wallMs: 5_000 },
      runs: [{ code: "return 1;", calls: [] }],
    });
    expect(omitted).toEqual([]);
  });

  it("leaves out what does not fit, and says so", () => {
    const servers = Array.from({ length: SHARE_CAPS.servers + 2 }, (_, i) => ({ ...demo, id: `s${i}`, name: `s${i}` }));
    const { state, omitted } = buildShareState({ servers, code: "x".repeat(SHARE_CAPS.codeChars + 1) });
    expect(state.servers).toHaveLength(SHARE_CAPS.servers);
    expect(state.code).toBeUndefined();
    expect(omitted).toEqual([`2 servers over the limit of ${SHARE_CAPS.servers}`, `code (longer than ${SHARE_CAPS.codeChars} characters)`]);
  });

  it("survives cyclic, deep and odd values in loose JSON", () => {
    const cyclic: Record<string, unknown> = { type: "text", text: "x", n: Number.NaN, f: () => 1, d: new Date(0) };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { type: "deep" };
    for (let i = 0; i < 200; i++) deep = { type: "deep", inner: deep };
    const { state } = buildShareState({ messages: [{ id: "m", role: "assistant", parts: [cyclic, deep] }] });
    expect(state.messages[0]?.parts[0]).toEqual({ type: "text", text: "x", n: null, d: "1970-01-01T00:00:00.000Z" });
    expect(state.messages[0]?.parts).toHaveLength(2);
  });

  it("cleans control and bidi characters out of names", () => {
    const { state } = buildShareState({ servers: [{ ...demo, name: "ship\u202Eping\u0000" }], model: { provider: "\u0007", id: "m" } });
    expect(state.servers[0]?.name).toBe("shipping");
    expect(state.model).toBeUndefined();
  });
});

describe("toShareServer", () => {
  it("refuses URLs and commands it cannot share", () => {
    expect(toShareServer({ ...demo, url: "javascript:alert(1)" })).toEqual({
      ok: false,
      reason: "shipping: its URL cannot be shared (not http(s), or an app route other than a demo server)",
    });
    expect(toShareServer({ ...demo, url: "file:///etc/passwd" }).ok).toBe(false);
    expect(toShareServer({ id: "x", name: "x", transport: "stdio", command: " ", enabled: true }).ok).toBe(false);
  });

  it("keeps app routes relative and drops fragments", () => {
    const out = toShareServer({ ...demo, url: "/api/demo-mcp/shipping?token=abc#frag" });
    expect(out).toEqual({
      ok: true,
      server: { name: "shipping", transport: "streamable-http", url: "/api/demo-mcp/shipping", hadSecrets: true, secrets: [{ where: "query", name: "token" }] },
    });
  });

  it("treats every header as a secret slot, even harmless-looking ones", () => {
    const out = toShareServer({ ...demo, url: "https://h.example/mcp", headers: { Accept: "x", "x-region": "eu" } });
    expect(out.ok && out.server).toMatchObject({
      hadSecrets: true,
      secrets: [
        { where: "header", name: "Accept" },
        { where: "header", name: "x-region" },
      ],
    });
  });
});

describe("a shared server's protocol era", () => {
  it("travels with a Streamable HTTP server, is refused on another transport, and comes back in the recipient's input", () => {
    const out = toShareServer({ ...demo, protocolEra: "legacy" });
    expect(out.ok && out.server.protocolEra).toBe("legacy");
    if (!out.ok) throw new Error(out.reason);
    expect(shareServerSchema.safeParse(out.server).success).toBe(true);
    expect(shareServerSchema.safeParse({ ...out.server, transport: "sse" }).success).toBe(false);
    expect(shareServerSchema.safeParse({ ...out.server, protocolEra: "auto" }).success).toBe(false);
    expect(toServerInput(out.server, {}, []).protocolEra).toBe("legacy");
    const sse = toShareServer({ ...demo, transport: "sse", url: "https://o.example/sse", protocolEra: "modern" });
    expect(sse.ok && sse.server).not.toHaveProperty("protocolEra");
  });
});

describe("a share's Inputs", () => {
  it("travel as JSON object text with the code, secret-looking values replaced and said", () => {
    const { state, omitted } = buildShareState({ code: "return maxDays;", inputs: '{ "maxDays": 5, "apiKey": "sk-live-1234567890abcdef" }' });
    expect(JSON.parse(state.inputs ?? "{}")).toEqual({ maxDays: 5, apiKey: expect.not.stringContaining("sk-live") as unknown });
    expect(state.inputs).not.toContain("sk-live");
    expect(omitted).toContain("Inputs: values that look like secrets (replaced by a placeholder)");
  });

  it("are left out, and said, when they are not an inputs object; empty ones are simply absent", () => {
    const broken = buildShareState({ code: "1", inputs: '{ "maxDays": 5' });
    expect(broken.state.inputs).toBeUndefined();
    expect(broken.omitted.some((line) => line.startsWith("Inputs (Inputs are not JSON"))).toBe(true);
    expect(buildShareState({ code: "1", inputs: "  " }).state.inputs).toBeUndefined();
    expect(buildShareState({ code: "1", inputs: "{}" }).state.inputs).toBeUndefined();
  });

  it("a forged share whose Inputs are not an inputs object is refused by the schema", () => {
    const { state } = buildShareState({ code: "1", inputs: '{ "n": 1 }' });
    expect(shareStateSchema.safeParse(state).success).toBe(true);
    expect(shareStateSchema.safeParse({ ...state, inputs: "[1, 2]" }).success).toBe(false);
    expect(shareStateSchema.safeParse({ ...state, inputs: '{ "__proto__": 1 }' }).success).toBe(false);
    expect(shareStateSchema.safeParse({ ...state, inputs: '{ "Math": 1 }' }).success).toBe(false);
  });
});
