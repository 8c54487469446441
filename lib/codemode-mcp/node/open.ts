/**
 * Opens the code-mode MCP server's world in a Node process: reads the config file, connects its
 * servers (HTTP and stdio), starts the sandbox thread pool and builds the service. The stdio
 * command and the app's HTTP endpoint both start here.
 */
import { publishSkills } from "../published-skills";
import { availableParallelism } from "node:os";
import { connectServers, type ConnectedServers } from "../../host-calls/node/connect-servers";
import { runInNode } from "../../sandbox/node/node-engine";
import { createThreadPool, type ThreadPool } from "../../sandbox/node/thread-pool";
import { MOCK_SCRIPT_LIMITS } from "../../host-calls/mocks";
import { parseCodeModeConfig, type CodeModeOptions } from "../config";
import type { ServerConfig } from "../../mcp/types";
import { createCodeModeService, skillNamesProblem, skillServerProblems, type CodeModeService } from "../service";
import type { FeedUpdate } from "../run-feed";
import { dirname, resolve } from "node:path";
import { readSkillsPath } from "../../skills/node/skills-path";
import type { Skill } from "../../skills/skill";
import { MCP_CONFIG_MAX_BYTES } from "../../mcp/config";
import { readTextCapped } from "../../text/node/read-capped";
import { messageOf } from "../../text/error-message";

export interface OpenedCodeModeServer {
  service: CodeModeService;
  pool: ThreadPool;
  /** Server names, for a start-up line. */
  serverNames: string[];
  /** The skills offered as tools. */
  skillNames: string[];
  warnings: string[];
  /** Each stdio server's state: up, or down until its next start (lib/mcp/stdio/node/stdio-supervisor.ts). */
  stdioStates: ConnectedServers["stdioStates"];
  close(): Promise<void>;
}

/**
 * Reads and checks a config file, and the skills it names (`codeMode.skills`, relative to the
 * file) or `skillsPath` names; throws an Error whose message lists every problem with its path.
 */
export async function readCodeModeConfig(
  path: string,
  skillsPath?: string,
): Promise<{ servers: ServerConfig[]; options: CodeModeOptions; warnings: string[]; skills: Skill[] }> {
  let text: string;
  try {
    text = await readTextCapped(path, MCP_CONFIG_MAX_BYTES, "a config file");
  } catch (error) {
    throw new Error(`Cannot read ${path}: ${messageOf(error)}`, { cause: error });
  }
  const parsed = parseCodeModeConfig(text, availableParallelism());
  if (!parsed.ok) throw new Error(`${path}:\n  ${parsed.errors.join("\n  ")}`);
  const where = skillsPath ?? (parsed.options.skills ? resolve(dirname(path), parsed.options.skills) : undefined);
  const skills = where ? await readSkillsPath(where) : [];
  const clash = skillNamesProblem(skills);
  if (clash) throw new Error(`${where ?? path}: ${clash}`);
  const unserved = skillServerProblems(
    skills,
    parsed.servers.map((s) => s.name),
  );
  if (unserved.length > 0) throw new Error(`${where ?? path}:\n  ${unserved.join("\n  ")}`);
  return { ...parsed, skills };
}

export async function openCodeModeServer(
  config: { servers: readonly ServerConfig[]; options: CodeModeOptions; warnings?: string[]; skills?: readonly Skill[] },
  options: { baseUrl: string; publish?: (update: FeedUpdate) => void },
): Promise<OpenedCodeModeServer> {
  const connected = await connectServers(config.servers, { baseUrl: options.baseUrl });
  const warnings = [...(config.warnings ?? [])];
  const published = await publishSkills(config.skills ?? [], (message) => warnings.push(`skills published over MCP: ${message}`));
  const pool = createThreadPool({ size: config.options.maxConcurrent, queueLimit: config.options.queueLimit, maxWaitMs: config.options.queueWaitMs });
  const service = createCodeModeService({
    servers: connected.servers,
    options: config.options,
    skills: config.skills ?? [],
    ...(published ? { published } : {}),
    run: (run) => pool.run(run),
    // Mock scripts are tiny and tightly limited; they run in-process so that a pool full of
    // programs waiting on their mocks cannot deadlock.
    runScript: (request) => runInNode({ ...request, limits: { ...MOCK_SCRIPT_LIMITS, ...request.limits } }),
    // A skill called inside a program runs in-process for the same reason: the program holds a thread while it waits.
    runNested: (request, host, onEvent, signal) => runInNode(request, host, { onEvent, signal }),
    ...(options.publish ? { publish: options.publish } : {}),
  });
  return {
    service,
    pool,
    serverNames: connected.servers.map((s) => s.name),
    skillNames: service.skills.map((s) => s.name),
    warnings,
    stdioStates: () => connected.stdioStates(),
    close: async () => {
      pool.close();
      await connected.close();
    },
  };
}
