/**
 * Builds the language model a chat request asked for. Server-side: it reads keys from the
 * environment it is given. A key typed in the browser (sent to this app's own origin) wins
 * over the server's, because the person chose it. The OpenAI-compatible provider never
 * gets a server key: its base URL comes from the browser, and a server key sent to a URL
 * anyone can choose would be a key given away.
 */
import "server-only";
import { RouteError } from "../../http/route-error";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createGateway } from "ai";
import { createGuardedFetch } from "../../net/server/guarded-fetch";
import type { ResolveAll } from "../../net/server/guarded-lookup";
import { baseUrlAllowList, checkBaseUrl, type BaseUrlPolicy } from "../base-url-guard";
import { createDemoModel, type DemoModelOptions } from "../demo/demo-model";
import { providerInfo, type ProviderId } from "../providers";
import { serverKey, type Env } from "./server-keys";

export type { Env } from "./server-keys";
import type { ResolvedModel } from "../types";

/** Server environment (process.env in the route; a plain object in tests). */

/** The model a request asks for. */
export interface ModelChoice {
  provider: ProviderId;
  modelId: string;
  /** Typed in the browser; overrides the server key. */
  apiKey?: string;
  /** OpenAI-compatible servers only. */
  baseURL?: string;
}

/** What the registry needs besides the choice. */
export interface RegistryOptions {
  env: Env;
  baseUrlPolicy: BaseUrlPolicy;
  /** Custom fetch for the provider (tests). */
  fetch?: typeof fetch;
  /** DNS for the OpenAI-compatible provider's guarded fetch (tests). */
  resolveAll?: ResolveAll;
  demo?: DemoModelOptions;
}

function keyHint(provider: ProviderId): string {
  const env = providerInfo(provider).keyEnv;
  return env ? `Check the key in the chat settings, or ${env} on the server.` : "Check the key in the chat settings.";
}

/** Resolves the requested model; throws RouteError when it cannot be used (no key, refused URL). */
export function resolveModel(choice: ModelChoice, options: RegistryOptions): ResolvedModel {
  const info = providerInfo(choice.provider);
  const typedKey = choice.apiKey?.trim() || undefined;
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  if (choice.provider === "demo") {
    return { model: createDemoModel(options.demo), label: "the demo model", secrets: [], keyHint: "" };
  }
  if (choice.provider === "openai-compatible") {
    const baseURL = choice.baseURL?.trim();
    if (!baseURL) throw new RouteError("bad_request:chat", "An OpenAI-compatible endpoint needs a base URL, e.g. http://localhost:11434/v1 for Ollama.");
    const verdict = checkBaseUrl(baseURL, options.baseUrlPolicy);
    if (!verdict.ok) throw new RouteError("refused:chat", verdict.reason);
    // The browser chose this URL: connect only where the guard allows, redirects included.
    const guarded =
      options.fetch ??
      createGuardedFetch({ allowList: baseUrlAllowList(options.baseUrlPolicy), ...(options.resolveAll ? { resolveAll: options.resolveAll } : {}) });
    const provider = createOpenAICompatible({
      name: "openai-compatible",
      baseURL,
      includeUsage: true,
      ...(typedKey ? { apiKey: typedKey } : {}),
      fetch: guarded,
    });
    return {
      model: provider.chatModel(choice.modelId),
      label: `the OpenAI-compatible server at ${baseURL}`,
      secrets: typedKey ? [typedKey] : [],
      keyHint: "Check the key in the chat settings.",
    };
  }
  const apiKey = typedKey ?? serverKey(choice.provider, options.env);
  const secrets = apiKey ? [apiKey] : [];
  const label = info.label;
  const hint = keyHint(choice.provider);
  if (!apiKey && !(choice.provider === "gateway" && options.env.VERCEL_OIDC_TOKEN)) {
    throw new RouteError(
      "missing_key:chat",
      `No API key for ${label}: type one in the chat settings (it stays in this browser and goes only to this app's server), or set ${info.keyEnv ?? "its key"} on the server.`,
    );
  }
  const settings = { ...(apiKey ? { apiKey } : {}), ...fetchOption };
  switch (choice.provider) {
    case "openai":
      return { model: createOpenAI(settings)(choice.modelId), label, secrets, keyHint: hint };
    case "anthropic":
      return { model: createAnthropic(settings)(choice.modelId), label, secrets, keyHint: hint };
    case "google":
      return { model: createGoogleGenerativeAI(settings)(choice.modelId), label, secrets, keyHint: hint };
    case "gateway":
      return { model: createGateway(settings)(choice.modelId), label, secrets, keyHint: hint };
  }
}
