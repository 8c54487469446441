#!/usr/bin/env node
// `npx code-mode-playground mcp --config mcp.json`: the playground's command line. The sources
// are TypeScript; tsx (a dependency) compiles them on the fly, so no build step is needed.
import { register } from "tsx/esm/api";

register();
await import("../scripts/cli.ts");
