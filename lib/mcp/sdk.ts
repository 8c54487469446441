/**
 * The MCP SDK's client, loaded when the first connection needs it (docs/speed.md, "The
 * page's start"). Its protocol schemas are some two hundred zod objects, built when their module
 * runs; the page's first screen needs none of them, so they load beside hydration, not before it.
 */
import { loadLater } from "../bundle/load-later";
import type * as SdkAuth from "./sdk-auth";
import type * as SdkClient from "./sdk-client";
import type * as SdkTasks from "./sdk-tasks";
import type * as SdkSkills from "./sdk-skills";

export type McpSdk = typeof SdkClient;
export type McpAuth = typeof SdkAuth;
export type McpTasksSdk = typeof SdkTasks;
export type McpSkillsSdk = typeof SdkSkills;

export const loadMcpSdk: () => Promise<McpSdk> = loadLater(() => import("./sdk-client"), "its MCP client");

/** The OAuth client, loaded when a server first asks for authorization. */
export const loadMcpAuth: () => Promise<McpAuth> = loadLater(() => import("./sdk-auth"), "its OAuth client");

/** The tasks extension's client, loaded when a server first offers tasks (lib/mcp/tasks.ts). */
export const loadMcpTasks: () => Promise<McpTasksSdk> = loadLater(() => import("./sdk-tasks"), "its tasks client");

/** The Skills extension's client, loaded when a person first opens a server's published skills (lib/mcp/published-skills.ts). */
export const loadMcpSkills: () => Promise<McpSkillsSdk> = loadLater(() => import("./sdk-skills"), "its skills client");
