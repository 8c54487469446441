/**
 * The tasks path's machinery with the tasks extension's client (`@modelcontextprotocol/ext-tasks`),
 * in one module lib/mcp/sdk.ts loads when a server first offers tasks, not with the page
 * (docs/mcp-client.md, "Tasks").
 */
export { createTaskCalls } from "./task-calls";
