"use client";

import { useId } from "react";
import type { BrowserKeys, ChatSettings as Settings, KeyName, ServerKeyAccess } from "@/lib/model/chat-settings";
import { PROVIDERS, providerInfo, type ProviderId, type ServerKeyStatus } from "@/lib/model/providers";
import styles from "./ChatSettings.module.css";
import { DEFAULT_RESULT_BUDGET_TOKENS } from "@/lib/model/result-budget";
import { DEFAULT_DECLARATIONS_BUDGET_TOKENS } from "@/lib/codemode/prompt-form";

interface ChatSettingsProps {
  settings: Settings;
  keys: BrowserKeys;
  serverKeys: ServerKeyStatus | undefined;
  access: ServerKeyAccess | undefined;
  provider: ProviderId;
  modelId: string;
  stepMode: boolean;
  hasDestructiveTools: boolean;
  /** Why the typed API goes as every declaration or as tool search now. */
  modeWhy: string;
  update: (patch: Partial<Settings>) => void;
  setKey: (name: KeyName, key: string) => void;
  forgetKeys: () => void;
}

/** "" → undefined, else a finite number (or undefined). */
function optionalNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function providerLabel(id: ProviderId, serverKeys: ServerKeyStatus | undefined, keys: BrowserKeys): string {
  const info = providerInfo(id);
  if (id === "demo") return info.label;
  const notes = [serverKeys?.[id] ? "server key" : "", keys[id] ? "your key" : ""].filter(Boolean);
  return notes.length > 0 ? `${info.label} (${notes.join(", ")})` : info.label;
}

/** Model, key, sampling and loop settings. Keys typed here stay in this browser and go only to this app's server. */
export function ChatSettings(props: ChatSettingsProps) {
  const { settings, keys, serverKeys, access, provider, modelId, stepMode, hasDestructiveTools, modeWhy, update, setKey, forgetKeys } = props;
  const id = useId();
  const info = providerInfo(provider);
  const hasAnyKey = Object.values(keys).some((k) => typeof k === "string" && k !== "");
  return (
    <form className={styles.settings} aria-label="Chat settings" onSubmit={(e) => e.preventDefault()}>
      <label htmlFor={`${id}-provider`}>Provider</label>
      <select
        id={`${id}-provider`}
        value={provider}
        onChange={(e) => {
          const next = e.target.value as ProviderId;
          // An endpoint that needs a base URL starts from its most common one rather than an empty field.
          const preset = settings.baseURL.trim() === "" ? providerInfo(next).presets?.[0]?.baseURL : undefined;
          update({ provider: next, ...(preset ? { baseURL: preset } : {}) });
        }}
      >
        {PROVIDERS.map((p) => (
          <option key={p.id} value={p.id}>
            {providerLabel(p.id, serverKeys, keys)}
          </option>
        ))}
      </select>

      {provider === "demo" ? (
        <p className={styles.hint}>
          Offline and scripted: answers the demo servers&apos; example prompts with fixed programs, and explains how to connect a real model for anything else.
          No key, no network.
        </p>
      ) : (
        <>
          <label htmlFor={`${id}-model`}>Model id</label>
          <input
            id={`${id}-model`}
            list={`${id}-models`}
            value={modelId}
            onChange={(e) => update({ models: { ...settings.models, [provider]: e.target.value } })}
            spellCheck={false}
          />
          <datalist id={`${id}-models`}>
            {info.suggestedModels.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>

          {info.needsBaseURL ? (
            <>
              <label htmlFor={`${id}-base`}>Base URL</label>
              <input
                id={`${id}-base`}
                value={settings.baseURL}
                placeholder="http://localhost:11434/v1"
                onChange={(e) => update({ baseURL: e.target.value })}
                spellCheck={false}
              />
              <div className={styles.presets} role="group" aria-label="Base URL presets">
                {info.presets?.map((p) => (
                  <button key={p.label} type="button" onClick={() => update({ baseURL: p.baseURL })}>
                    {p.label}
                  </button>
                ))}
              </div>
            </>
          ) : null}

          {access === "secret" && !info.needsBaseURL ? (
            <>
              <label htmlFor={`${id}-access`}>Server access secret</label>
              <input
                id={`${id}-access`}
                type="password"
                autoComplete="off"
                value={keys.access ?? ""}
                placeholder="From the operator of this playground"
                onChange={(e) => setKey("access", e.target.value)}
                spellCheck={false}
              />
              <p className={styles.hint}>
                This hosted playground uses its own model keys only for people who have its access secret. Without it, paste your own key below.
              </p>
            </>
          ) : null}
          <label htmlFor={`${id}-key`}>API key{info.keyOptional ? " (if the server needs one)" : ""}</label>
          <input
            id={`${id}-key`}
            type="password"
            autoComplete="off"
            value={keys[provider] ?? ""}
            placeholder={serverKeys?.[provider] ? "Using the server's key" : "Paste a key"}
            onChange={(e) => setKey(provider, e.target.value)}
            spellCheck={false}
          />
          <p className={styles.hint}>
            Kept in this browser&apos;s localStorage and sent only to this app&apos;s own server, which passes it to {info.label}.
            {info.keyEnv ? ` The server can hold one instead: ${info.keyEnv}.` : ""}{" "}
            <button type="button" onClick={forgetKeys} disabled={!hasAnyKey}>
              Forget my keys
            </button>
          </p>
        </>
      )}

      <label htmlFor={`${id}-temp`}>Temperature</label>
      <input
        id={`${id}-temp`}
        type="number"
        min={0}
        max={2}
        step={0.1}
        placeholder="provider default"
        value={settings.temperature ?? ""}
        onChange={(e) => update({ temperature: optionalNumber(e.target.value) })}
      />
      <label htmlFor={`${id}-max-tokens`}>Max output tokens</label>
      <input
        id={`${id}-max-tokens`}
        type="number"
        min={1}
        step={1}
        placeholder="provider default"
        value={settings.maxOutputTokens ?? ""}
        onChange={(e) => update({ maxOutputTokens: optionalNumber(e.target.value) })}
      />
      <label htmlFor={`${id}-steps`}>Max steps per answer</label>
      <input
        id={`${id}-steps`}
        type="number"
        min={1}
        max={100}
        step={1}
        value={settings.maxSteps}
        onChange={(e) => update({ maxSteps: Math.min(100, Math.max(1, optionalNumber(e.target.value) ?? 1)) })}
      />
      <label
        htmlFor={`${id}-budget`}
        title="A program's value larger than this reaches the model cut down, with a note saying what was cut and how to get the rest"
      >
        Result budget (tokens)
      </label>
      <input
        id={`${id}-budget`}
        type="number"
        min={200}
        max={200000}
        step={500}
        value={settings.resultBudgetTokens}
        onChange={(e) => update({ resultBudgetTokens: Math.min(200_000, Math.max(200, optionalNumber(e.target.value) ?? DEFAULT_RESULT_BUDGET_TOKENS)) })}
      />
      <label htmlFor={`${id}-discovery`} title="What code mode tells the model about the tools: every declaration, or the namespaces and a search_tools tool">
        Tool declarations
      </label>
      <select id={`${id}-discovery`} value={settings.discovery} onChange={(e) => update({ discovery: e.target.value as Settings["discovery"] })}>
        <option value="auto">Automatic</option>
        <option value="declarations">Every declaration</option>
        <option value="search">Tool search</option>
      </select>
      <label htmlFor={`${id}-declarations-budget`} title="Past this many tokens of declarations, Automatic gives the model tool search instead">
        Declarations budget (tokens)
      </label>
      <input
        id={`${id}-declarations-budget`}
        type="number"
        min={100}
        max={1000000}
        step={500}
        disabled={settings.discovery !== "auto"}
        value={settings.declarationsBudgetTokens}
        onChange={(e) =>
          update({ declarationsBudgetTokens: Math.min(1_000_000, Math.max(100, optionalNumber(e.target.value) ?? DEFAULT_DECLARATIONS_BUDGET_TOKENS)) })
        }
      />
      <p className={styles.hint} data-testid="discovery-why">
        {settings.toolMode === "classic"
          ? "Classic mode offers every tool as a tool."
          : settings.toolMode === "classic-search"
            ? "Classic with tool search offers search_tools; the tools a search finds load for the next steps."
            : modeWhy}
      </p>

      <div className={styles.checks}>
        <label>
          <input type="checkbox" checked={stepMode} onChange={(e) => update({ stepMode: e.target.checked })} /> Step mode: approve each program in the editor
          before it runs
          {settings.stepMode === undefined && hasDestructiveTools ? (
            <span className={styles.hint}> (on because a connected server has destructive tools)</span>
          ) : null}
        </label>
        <label>
          <input
            type="checkbox"
            checked={settings.askEachDestructive}
            disabled={!stepMode}
            onChange={(e) => update({ askEachDestructive: e.target.checked })}
          />{" "}
          Ask for each destructive call too (otherwise approving a program in step mode approves its destructive calls)
        </label>
        <label>
          <input type="checkbox" checked={settings.returnDirectly} onChange={(e) => update({ returnDirectly: e.target.checked })} /> Return directly: show the
          program&apos;s value as the answer, without another model turn
        </label>
      </div>
    </form>
  );
}
