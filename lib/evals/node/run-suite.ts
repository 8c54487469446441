/**
 * Runs an eval suite headless, in Node: each case × mode × model × run goes through the one
 * agent loop (runHeadlessAgent) against a tool world of the case's servers (the built-in demo
 * servers served on loopback, or HTTP servers of the suite's mcp.json), with the provider called
 * directly. Runs are independent (a fresh conversation each); a failing model or server fails
 * that run with its error and the suite goes on. See docs/agent-loop.md, "The agent loop".
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { countTokens } from "../../codemode/tokens";
import { importMcpServersConfig } from "../../mcp/config";
import { DEMO_SERVER_NAMES, demoServerPath } from "../../demo-servers/catalog";
import { startDemoHost } from "../../demo-servers/node/demo-host";
import { startCatalogHost } from "../../demo-servers/node/catalog-host";
import { loadCatalogServers } from "./catalog-servers";
import type { ServerConfig } from "../../mcp/types";
import { openToolWorld, runHeadlessAgent, type OpenedToolWorld } from "../../model/node/headless-agent";
import { parseModelRef } from "../../model/providers";
import { resolveModel, type Env } from "../../model/server/provider-registry";
import type { ResolvedModel } from "../../model/types";
import { runEvalCases } from "../run-cases";
import type { EvalRun } from "../report";
import type { EvalSuite, PlannedCase } from "../suite";

/** How to run a suite. */
export interface RunSuiteOptions {
  /** The suite file's folder (its mcpConfig path is relative to it). */
  suiteDir: string;
  cases: readonly PlannedCase[];
  env: Env;
  /** Base URL for openai-compatible models. */
  baseURL?: string;
  /** Told after every run (progress). */
  onRun?: (run: EvalRun, done: number, total: number) => void;
  signal?: AbortSignal;
  /** Model options (tests: the demo model without streaming delays). */
  demo?: { chunkDelayMs?: number };
}

function demoServer(name: (typeof DEMO_SERVER_NAMES)[number]): ServerConfig {
  return { id: name, name, transport: "streamable-http", url: demoServerPath(name), headers: {}, enabled: true };
}

function resolve(ref: string, options: RunSuiteOptions): ResolvedModel {
  const parsed = parseModelRef(ref);
  if (!parsed.ok) throw new Error(parsed.message);
  return resolveModel(
    { provider: parsed.provider, modelId: parsed.modelId, ...(options.baseURL ? { baseURL: options.baseURL } : {}) },
    { env: options.env, baseUrlPolicy: { allowPrivate: true }, ...(options.demo ? { demo: options.demo } : {}) },
  );
}

/** Runs every planned case and returns one record per run. */
export async function runSuite(suite: EvalSuite, options: RunSuiteOptions): Promise<EvalRun[]> {
  const configured = new Map<string, ServerConfig>();
  if (suite.mcpConfig) {
    const imported = importMcpServersConfig(readFileSync(path.resolve(options.suiteDir, suite.mcpConfig), "utf8"));
    if (!imported.ok) throw new Error(`${suite.mcpConfig}: ${imported.errors.join("; ")}`);
    for (const server of imported.servers) configured.set(server.name, { ...server, enabled: true });
  }
  const isDemo = (name: string) => !configured.has(name) && (DEMO_SERVER_NAMES as readonly string[]).includes(name);
  const usesDemo = options.cases.some((c) => c.servers.some(isDemo));
  const host = usesDemo ? await startDemoHost() : undefined;
  // Servers of the large catalog (evals/catalog/) are served offline by the catalog host.
  const captured = new Map(loadCatalogServers().map((s) => [s.name, s]));
  const fromCatalog = (name: string) => !configured.has(name) && !isDemo(name) && captured.has(name);
  const catalogHost = options.cases.some((c) => c.servers.some(fromCatalog)) ? await startCatalogHost([...captured.values()]) : undefined;
  const worlds = new Map<string, Promise<OpenedToolWorld>>();
  const worldFor = (servers: readonly string[]): Promise<OpenedToolWorld> => {
    const key = JSON.stringify([...servers].sort());
    let world = worlds.get(key);
    if (!world) {
      const configs = servers.map((name) => {
        const config =
          configured.get(name) ??
          ((DEMO_SERVER_NAMES as readonly string[]).includes(name)
            ? demoServer(name as (typeof DEMO_SERVER_NAMES)[number])
            : catalogHost && captured.has(name)
              ? { id: name, name, transport: "streamable-http" as const, url: catalogHost.urlFor(name), headers: {}, enabled: true }
              : undefined);
        if (!config)
          throw new Error(
            `The server "${name}" is not configured: use a built-in demo server (${DEMO_SERVER_NAMES.join(", ")}), a server of the large catalog (evals/catalog/), or add it to the suite's mcpConfig.`,
          );
        return config;
      });
      // No person here: "ask" refuses, as a person who is not there would not approve.
      world = openToolWorld(configs, { baseUrl: host?.url ?? "http://127.0.0.1", destructive: suite.destructive === "ask" ? "deny" : suite.destructive });
      worlds.set(key, world);
    }
    return world;
  };

  try {
    return await runEvalCases(
      options.cases,
      async (planned, mode, model, signal) => {
        const world = await worldFor(planned.servers);
        const resolved = resolve(model, options);
        const callsBefore = world.calls.length;
        const runsBefore = world.runs.length;
        const result = await runHeadlessAgent({
          world,
          model: resolved,
          prompt: planned.prompt,
          toolMode: mode,
          discovery: suite.discovery,
          declarationsBudgetTokens: suite.declarationsBudgetTokens,
          policy: { maxSteps: planned.maxSteps },
          ...(signal ? { abortSignal: signal } : {}),
        });
        return {
          result,
          calls: world.calls.slice(callsBefore),
          values: world.runs.slice(runsBefore).flatMap((r) => (r.result.ok ? [r.result.value] : [])),
        };
      },
      { ...(options.onRun ? { onRun: options.onRun } : {}), ...(options.signal ? { signal: options.signal } : {}), countTokens },
    );
  } finally {
    await Promise.all([...worlds.values()].map((w) => w.then((world) => world.close()).catch(() => undefined)));
    await host?.close();
    await catalogHost?.close();
  }
}
