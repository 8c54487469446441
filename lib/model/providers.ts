/**
 * The model providers the chat can use, as plain data: safe to import from client components
 * (no SDK code). The server-side factories live in provider-registry.ts.
 */

/** Provider ids; "demo" is the offline scripted model that needs no key. */
export const PROVIDER_IDS = ["demo", "openai", "anthropic", "google", "gateway", "openai-compatible"] as const;
/** A provider id. */
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** A well-known OpenAI-compatible server, to prefill the base URL. */
export interface BaseUrlPreset {
  label: string;
  baseURL: string;
  /** Local servers usually take no key. */
  needsKey: boolean;
}

/** How the UI describes a provider and what it needs. */
export interface ProviderInfo {
  id: ProviderId;
  label: string;
  /** Model id used when the person has not typed one. */
  defaultModel: string;
  /** Suggestions for the free-text model field; any id the provider accepts works. */
  suggestedModels: readonly string[];
  /** Server environment variable holding the key; undefined when the provider needs none. */
  keyEnv?: string;
  /** Needs a base URL (OpenAI-compatible servers). */
  needsBaseURL: boolean;
  /** A key is optional (local servers). */
  keyOptional: boolean;
  presets?: readonly BaseUrlPreset[];
}

/** Every provider, in the order the settings list them. */
export const PROVIDERS: readonly ProviderInfo[] = [
  {
    id: "demo",
    label: "Demo (offline, scripted)",
    defaultModel: "code-mode-demo",
    suggestedModels: ["code-mode-demo"],
    needsBaseURL: false,
    keyOptional: true,
  },
  {
    id: "openai",
    label: "OpenAI",
    defaultModel: "gpt-5-mini",
    suggestedModels: ["gpt-5-mini", "gpt-5", "gpt-5.4-mini", "gpt-4.1", "gpt-4.1-mini", "o4-mini"],
    keyEnv: "OPENAI_API_KEY",
    needsBaseURL: false,
    keyOptional: false,
  },
  {
    id: "anthropic",
    label: "Anthropic",
    defaultModel: "claude-sonnet-4-5",
    suggestedModels: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-5", "claude-sonnet-4-6"],
    keyEnv: "ANTHROPIC_API_KEY",
    needsBaseURL: false,
    keyOptional: false,
  },
  {
    id: "google",
    label: "Google Gemini",
    defaultModel: "gemini-2.5-flash",
    suggestedModels: ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-2.5-flash-lite", "gemini-flash-latest"],
    keyEnv: "GOOGLE_GENERATIVE_AI_API_KEY",
    needsBaseURL: false,
    keyOptional: false,
  },
  {
    id: "gateway",
    label: "Vercel AI Gateway",
    defaultModel: "openai/gpt-5-mini",
    suggestedModels: ["openai/gpt-5-mini", "anthropic/claude-sonnet-4.5", "google/gemini-2.5-flash"],
    keyEnv: "AI_GATEWAY_API_KEY",
    needsBaseURL: false,
    keyOptional: false,
  },
  {
    id: "openai-compatible",
    label: "OpenAI-compatible endpoint",
    defaultModel: "llama3.1",
    suggestedModels: ["llama3.1", "qwen2.5-coder", "mistral-small"],
    needsBaseURL: true,
    keyOptional: true,
    presets: [
      { label: "Ollama", baseURL: "http://localhost:11434/v1", needsKey: false },
      { label: "LM Studio", baseURL: "http://localhost:1234/v1", needsKey: false },
      { label: "vLLM", baseURL: "http://localhost:8000/v1", needsKey: false },
      { label: "llama.cpp server", baseURL: "http://localhost:8080/v1", needsKey: false },
      { label: "LiteLLM proxy", baseURL: "http://localhost:4000/v1", needsKey: true },
      { label: "OpenRouter", baseURL: "https://openrouter.ai/api/v1", needsKey: true },
    ],
  },
];

/** The provider called `id` (the demo one when unknown). */
export function providerInfo(id: ProviderId): ProviderInfo {
  return PROVIDERS.find((p) => p.id === id) ?? (PROVIDERS[0] as ProviderInfo);
}

/** Which providers have a key configured on the server. Booleans only: the keys never leave it. */
export type ServerKeyStatus = Record<ProviderId, boolean>;

/**
 * A model named as `provider:model-id` (evals, `npm run agent`): the provider and the model, the
 * provider's default model when the id is empty. The one parser of that form.
 */
export function parseModelRef(ref: string): { ok: true; provider: ProviderId; modelId: string } | { ok: false; message: string } {
  const colon = ref.indexOf(":");
  const name = colon < 0 ? ref : ref.slice(0, colon);
  if (!(PROVIDER_IDS as readonly string[]).includes(name)) return { ok: false, message: `Unknown provider "${name}" (use one of ${PROVIDER_IDS.join(", ")}).` };
  const provider = name as ProviderId;
  const modelId = colon < 0 ? "" : ref.slice(colon + 1);
  return { ok: true, provider, modelId: modelId || providerInfo(provider).defaultModel };
}
