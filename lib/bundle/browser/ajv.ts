/**
 * Stands in for `ajv` in the page's bundle (next.config.js, docs/speed.md, "The page's
 * start"). The MCP SDK's client imports Ajv for its default output-schema validator, but every
 * client this app makes passes its own (`ACCEPT_ALL`, lib/mcp/connection.ts), and Ajv compiles
 * schemas with `new Function`, which the page's CSP forbids anyway.
 */
export default class Ajv {
  constructor() {
    throw new Error("Ajv is not in the page's bundle: pass a jsonSchemaValidator to the MCP client (see docs/ARCHITECTURE.md, \"The page's start\").");
  }
}
