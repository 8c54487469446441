import { describe, expect, it } from "vitest";
import { checkBaseUrl } from "@/lib/model/base-url-guard";
import { buildRequestExtras } from "@/lib/model/chat-request";
import {
  DEFAULT_SETTINGS,
  KEYS_STORAGE_KEY,
  SETTINGS_STORAGE_KEY,
  effectiveProvider,
  effectiveStepMode,
  forgetKeys,
  loadKeys,
  loadSettings,
  saveKeys,
  saveSettings,
  usableServerKeys,
} from "@/lib/model/chat-settings";
import { appMode } from "@/lib/http/server/deployment";
import { resolveModel } from "@/lib/model/server/provider-registry";
import { serverKeyStatus } from "@/lib/model/server/server-keys";
import { chatRequestSchema } from "@/lib/model/request-schema";
import { memoryStorage } from "../../fixtures/mcp/memory-storage";

const noServerKeys = serverKeyStatus({});

describe("chat settings storage", () => {
  it("round-trips settings, and keeps keys under their own storage key", () => {
    const storage = memoryStorage();
    expect(loadSettings(storage)).toEqual(DEFAULT_SETTINGS);
    saveSettings(storage, { ...DEFAULT_SETTINGS, provider: "anthropic", maxSteps: 4 });
    saveKeys(storage, { anthropic: "sk-ant-123", openai: "" });
    expect(loadSettings(storage)).toMatchObject({ provider: "anthropic", maxSteps: 4 });
    expect(storage.getItem(SETTINGS_STORAGE_KEY)).not.toContain("sk-ant-123");
    expect(loadKeys(storage)).toEqual({ anthropic: "sk-ant-123" });
    forgetKeys(storage);
    expect(storage.getItem(KEYS_STORAGE_KEY)).toBeNull();
    storage.setItem(SETTINGS_STORAGE_KEY, "{not json");
    expect(loadSettings(storage)).toEqual(DEFAULT_SETTINGS);
  });

  it("reads the older search switch: on pins tool search, off leaves the form to the budget", () => {
    const storage = memoryStorage();
    storage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify({ searchMode: true, maxSteps: 3 }));
    expect(loadSettings(storage)).toMatchObject({ discovery: "search", maxSteps: 3 });
    storage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify({ searchMode: false }));
    expect(loadSettings(storage)).toMatchObject({ discovery: "auto", declarationsBudgetTokens: 4_000 });
    storage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify({ searchMode: true, discovery: "declarations" }));
    expect(loadSettings(storage).discovery).toBe("declarations");
  });

  it("defaults to the demo model unless a key exists, and to step mode when tools are destructive", () => {
    expect(effectiveProvider(DEFAULT_SETTINGS, noServerKeys, {})).toBe("demo");
    expect(effectiveProvider(DEFAULT_SETTINGS, { ...noServerKeys, google: true }, {})).toBe("google");
    expect(effectiveProvider(DEFAULT_SETTINGS, noServerKeys, { anthropic: "k" })).toBe("anthropic");
    expect(effectiveProvider({ ...DEFAULT_SETTINGS, provider: "demo" }, { ...noServerKeys, openai: true }, {})).toBe("demo");
    expect(effectiveStepMode(DEFAULT_SETTINGS, true)).toBe(true);
    expect(effectiveStepMode({ ...DEFAULT_SETTINGS, stepMode: false }, true)).toBe(false);
  });
});

describe("request body", () => {
  it("classic mode sends its tools (name, description, schema) and code mode sends none", () => {
    const tools = [
      {
        name: "shipping__get_quote",
        description: "Quote",
        inputSchema: { type: "object" },
        namespace: "shipping",
        fn: "get_quote",
        server: "shipping",
        tool: "get_quote",
      },
    ];
    const classic = buildRequestExtras({
      settings: { ...DEFAULT_SETTINGS, toolMode: "classic" },
      keys: {},
      serverKeys: noServerKeys,
      instructions: "C",
      classicTools: tools,
    });
    expect(classic).toMatchObject({
      toolMode: "classic",
      classicTools: [{ name: "shipping__get_quote", description: "Quote", inputSchema: { type: "object" } }],
    });
    expect(Object.keys(classic.classicTools?.[0] ?? {})).toEqual(["name", "description", "inputSchema"]);
    expect(
      buildRequestExtras({ settings: DEFAULT_SETTINGS, keys: {}, serverKeys: noServerKeys, instructions: "C", classicTools: tools }).classicTools,
    ).toBeUndefined();
    const refused = chatRequestSchema.safeParse({
      ...classic,
      classicTools: [{ name: "bad name!", description: "", inputSchema: {} }],
      messages: [{ id: "u", role: "user", parts: [] }],
    });
    expect(refused.success).toBe(false);
  });

  it("carries the model, the browser key only for its provider, the prompt, the mode and settings", () => {
    const extras = buildRequestExtras({
      settings: {
        ...DEFAULT_SETTINGS,
        provider: "openai-compatible",
        baseURL: " http://localhost:11434/v1 ",
        models: { "openai-compatible": "qwen" },
        temperature: 0.3,
        discovery: "search",
      },
      keys: { "openai-compatible": "k1", openai: "k2" },
      serverKeys: noServerKeys,
      instructions: "SYSTEM",
    });
    expect(extras).toEqual({
      model: { provider: "openai-compatible", modelId: "qwen", apiKey: "k1", baseURL: "http://localhost:11434/v1" },
      instructions: "SYSTEM",
      mode: "search",
      toolMode: "code",
      settings: { temperature: 0.3 },
    });
    const parsed = chatRequestSchema.parse({ ...extras, messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "x" }] }] });
    expect(parsed.model.baseURL).toBe("http://localhost:11434/v1");
    expect(buildRequestExtras({ settings: DEFAULT_SETTINGS, keys: { openai: "k" }, serverKeys: noServerKeys, instructions: "" }).model).toEqual({
      provider: "openai",
      modelId: "gpt-5-mini",
      apiKey: "k",
    });
  });

  it("sends the hosted server's access secret with model requests, and counts server keys only once it is typed", () => {
    const withKey = serverKeyStatus({ OPENAI_API_KEY: "sk-server" });
    const extras = buildRequestExtras({ settings: DEFAULT_SETTINGS, keys: { access: " op-secret " }, serverKeys: withKey, instructions: "" });
    expect(extras).toMatchObject({ access: "op-secret", model: { provider: "openai" } });
    expect(chatRequestSchema.parse({ ...extras, messages: [{ id: "u", role: "user", parts: [] }] }).access).toBe("op-secret");
    expect(usableServerKeys(withKey, "secret", {})).toMatchObject({ openai: false, demo: true });
    expect(usableServerKeys(withKey, "secret", { access: "op-secret" })).toBe(withKey);
    expect(usableServerKeys(withKey, "open", {})).toBe(withKey);
    // The demo never carries the secret anywhere.
    expect(
      buildRequestExtras({ settings: { ...DEFAULT_SETTINGS, provider: "demo" }, keys: { access: "op-secret" }, serverKeys: withKey, instructions: "" }),
    ).not.toHaveProperty("access");
  });

  it("rejects non-http base URLs and out-of-range settings", () => {
    const base = { messages: [{ id: "u", role: "user", parts: [] }], instructions: "" };
    expect(chatRequestSchema.safeParse({ ...base, model: { provider: "openai-compatible", modelId: "m", baseURL: "file:///etc/passwd" } }).success).toBe(false);
    expect(chatRequestSchema.safeParse({ ...base, model: { provider: "openai", modelId: "m" }, settings: { temperature: 7 } }).success).toBe(false);
    expect(chatRequestSchema.safeParse({ ...base, model: { provider: "nope", modelId: "m" } }).success).toBe(false);
  });
});

describe("provider registry", () => {
  const policy = { allowPrivate: false };

  it("prefers the browser's key, uses the server's otherwise, and reports booleans only", () => {
    const env = { OPENAI_API_KEY: "sk-server-000000", AI_GATEWAY_API_KEY: " " };
    expect(serverKeyStatus(env)).toEqual({ demo: true, openai: true, anthropic: false, google: false, gateway: false, "openai-compatible": false });
    expect(resolveModel({ provider: "openai", modelId: "gpt-5-mini" }, { env, baseUrlPolicy: policy }).secrets).toEqual(["sk-server-000000"]);
    expect(resolveModel({ provider: "openai", modelId: "gpt-5-mini", apiKey: "sk-mine-1111111" }, { env, baseUrlPolicy: policy }).secrets).toEqual([
      "sk-mine-1111111",
    ]);
    expect(() => resolveModel({ provider: "anthropic", modelId: "claude-sonnet-4-5" }, { env, baseUrlPolicy: policy })).toThrow(/ANTHROPIC_API_KEY/);
  });

  it("never sends a server key to a browser-chosen base URL", () => {
    const resolved = resolveModel(
      { provider: "openai-compatible", modelId: "m", baseURL: "https://openrouter.ai/api/v1" },
      { env: { OPENAI_API_KEY: "sk-server-000000" }, baseUrlPolicy: policy },
    );
    expect(resolved.secrets).toEqual([]);
    expect(resolved.model.provider).toBe("openai-compatible.chat");
  });

  it("guards base URLs: private ones only when the app runs locally or they are allow-listed", () => {
    expect(checkBaseUrl("https://openrouter.ai/api/v1", policy)).toEqual({ ok: true });
    expect(checkBaseUrl("http://localhost:11434/v1", policy)).toMatchObject({ ok: false });
    expect(checkBaseUrl("http://localhost:11434/v1", { allowPrivate: true })).toEqual({ ok: true });
    expect(checkBaseUrl("http://10.1.2.3:8000/v1", { allowPrivate: false, allowList: ["10.0.0.0/8"] })).toEqual({ ok: true });
    expect(checkBaseUrl("http://169.254.169.254/latest", { allowPrivate: true })).toMatchObject({ ok: false });
    expect(checkBaseUrl("http://user:pw@example.com/v1", policy)).toMatchObject({ ok: false });
  });

  it("knows when the app runs on loopback (local mode) and when CMP_MODE=hosted overrides it", () => {
    const request = (headers: Record<string, string> = {}) =>
      new Request("http://127.0.0.1:3000/api/chat", { headers: { host: "127.0.0.1:3000", ...headers } });
    expect(appMode(request(), {}, () => ["127.0.0.1"])).toBe("local");
    expect(appMode(request(), { CMP_MODE: "hosted" }, () => ["127.0.0.1"])).toBe("hosted");
    expect(appMode(request(), {}, () => ["::"])).toBe("hosted");
    expect(appMode(request(), {}, () => [])).toBe("hosted");
    expect(appMode(request({ "x-forwarded-for": "203.0.113.9" }), {}, () => ["127.0.0.1"])).toBe("hosted");
  });
});
