/**
 * Which model the page talks to and how (docs/page-state.md, "Page state"): the chat settings
 * and the keys typed in this browser (kept in its storage), which providers the server holds keys
 * for, and the person's edits of the system prompt (this session only). One store; what the chat
 * uses follows from it and the catalog through `modelChoice` and `requestExtras`, plain functions.
 */
import { Store } from "../state/store";
import type { PromptMode } from "../codemode/system-prompt";
import { choosePromptForm } from "../codemode/prompt-form";
import { modeInstructions } from "../model/tool-world";
import type { ToolCatalog } from "../codemode/tool-catalog";
import { buildRequestExtras, modelIdFor } from "../model/chat-request";
import {
  DEFAULT_SETTINGS,
  effectiveProvider,
  effectiveStepMode,
  forgetKeys,
  loadKeys,
  loadSettings,
  saveKeys,
  saveSettings,
  usableServerKeys,
  type BrowserKeys,
  type ChatSettings,
  type KeyName,
  type ServerKeyAccess,
} from "../model/chat-settings";
import type { ProviderId, ServerKeyStatus } from "../model/providers";
import type { ChatRequestExtras } from "../model/request-schema";
import type { ToolMode } from "../model/tool-handler";
import type { RemovableTextStorage } from "../storage/key-value";

/** A saved edit of the system prompt (kept for this session only). */
export interface PromptVersion {
  id: number;
  mode: PromptMode;
  text: string;
  savedAt: number;
}

export interface ModelState {
  settings: ChatSettings;
  /** API keys typed in this browser (kept in its storage under their own key). */
  keys: BrowserKeys;
  /** False until the browser's storage has been read. */
  loaded: boolean;
  /** Which providers have a key on the server, as it said; undefined until known (or when it could not say). */
  reportedServerKeys: ServerKeyStatus | undefined;
  /** How the server's keys are reached: open (local), behind the operator's access secret, or off. */
  access: ServerKeyAccess | undefined;
  /** The person's prompt for a mode, pinned until reset; the generated one otherwise. */
  promptOverrides: Partial<Record<PromptMode, string>>;
  promptVersions: readonly PromptVersion[];
}

/** What a compare lane changes about the chat's request. */
export interface LaneChoice {
  toolMode: ToolMode;
  provider: ProviderId;
  modelId: string;
}

export class ModelSettings extends Store<ModelState> {
  readonly #storage: RemovableTextStorage | undefined;

  constructor(storage?: RemovableTextStorage) {
    super({ settings: DEFAULT_SETTINGS, keys: {}, loaded: false, reportedServerKeys: undefined, access: undefined, promptOverrides: {}, promptVersions: [] });
    this.#storage = storage;
  }

  /** Reads the settings and keys this browser keeps. */
  load(): void {
    const storage = this.#storage;
    this.#patch({ settings: storage ? loadSettings(storage) : DEFAULT_SETTINGS, keys: storage ? loadKeys(storage) : {}, loaded: true });
  }

  readonly update = (patch: Partial<ChatSettings>): void => {
    const settings = { ...this.snapshot().settings, ...patch };
    if (this.#storage) saveSettings(this.#storage, settings);
    this.#patch({ settings });
  };

  readonly setKey = (name: KeyName, key: string): void => {
    const keys = { ...this.snapshot().keys, [name]: key };
    if (this.#storage) saveKeys(this.#storage, keys);
    this.#patch({ keys });
  };

  readonly forgetKeys = (): void => {
    if (this.#storage) forgetKeys(this.#storage);
    this.#patch({ keys: {} });
  };

  /** What the server said about its keys (GET /api/chat/providers). */
  serverKeysKnown(serverKeys: ServerKeyStatus, access: ServerKeyAccess | undefined): void {
    this.#patch({ reportedServerKeys: serverKeys, access });
  }

  /** Uses `text` as the prompt of `mode` from now on and keeps it as a version. */
  savePrompt(mode: PromptMode, text: string): void {
    const { promptOverrides, promptVersions } = this.snapshot();
    this.#patch({
      promptOverrides: { ...promptOverrides, [mode]: text },
      promptVersions: [...promptVersions, { id: (promptVersions.at(-1)?.id ?? 0) + 1, mode, text, savedAt: Date.now() }],
    });
  }

  /** Back to the generated prompt of `mode` (the versions stay). */
  resetPrompt(mode: PromptMode): void {
    const promptOverrides = { ...this.snapshot().promptOverrides };
    delete promptOverrides[mode];
    this.#patch({ promptOverrides });
  }

  /** Uses a saved version again. */
  restorePrompt(id: number): void {
    const version = this.snapshot().promptVersions.find((v) => v.id === id);
    if (version) this.#patch({ promptOverrides: { ...this.snapshot().promptOverrides, [version.mode]: version.text } });
  }

  #patch(patch: Partial<ModelState>): void {
    this.set({ ...this.snapshot(), ...patch });
  }
}

/** What the chat uses now, from the model state and the connected servers. */
export interface ModelChoice {
  /** Providers with a key on the server that this browser may use. */
  serverKeys: ServerKeyStatus | undefined;
  provider: ProviderId;
  modelId: string;
  mode: PromptMode;
  /** Why this form of the typed API (every declaration, or tool search). */
  modeWhy: string;
  stepMode: boolean;
  /** The prompt in effect for the mode: the person's edit, else the generated one. */
  prompt: string;
  defaultPrompt: string;
  edited: boolean;
}

/** Only an explicit destructiveHint counts (the approval gate's rule): step mode defaults to on when a connected tool has one. */
export function hasDestructiveTools(catalog: ToolCatalog): boolean {
  return catalog.servers.some((s) => s.tools.some((t) => t.annotations?.destructiveHint === true));
}

export function modelChoice(state: ModelState, catalog: ToolCatalog): ModelChoice {
  const { settings, keys } = state;
  const serverKeys = usableServerKeys(state.reportedServerKeys, state.access, keys);
  const provider = effectiveProvider(settings, serverKeys, keys);
  const form = choosePromptForm(catalog.declarations.text, settings.discovery, settings.declarationsBudgetTokens);
  const { mode } = form;
  const override = state.promptOverrides[mode];
  const defaultPrompt = catalog.systemPrompt(mode);
  return {
    serverKeys,
    provider,
    modelId: modelIdFor(settings, provider),
    mode,
    modeWhy: form.why,
    stepMode: effectiveStepMode(settings, hasDestructiveTools(catalog)),
    prompt: override ?? defaultPrompt,
    defaultPrompt,
    edited: override !== undefined,
  };
}

/** The body fields of the next chat request; a compare lane changes the tool mode and model, keys and prompts stay as configured. */
export function requestExtras(state: ModelState, catalog: ToolCatalog, lane?: LaneChoice): ChatRequestExtras {
  const current = state.settings;
  const settings = lane
    ? { ...current, provider: lane.provider, models: { ...current.models, [lane.provider]: lane.modelId }, toolMode: lane.toolMode }
    : current;
  const choice = modelChoice(state, catalog);
  return buildRequestExtras({
    settings,
    keys: state.keys,
    serverKeys: choice.serverKeys,
    instructions: modeInstructions(settings.toolMode, catalog, choice.prompt),
    form: { mode: choice.mode, why: choice.modeWhy },
    classicTools: catalog.classicTools,
  });
}
