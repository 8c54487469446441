/**
 * The e2e `test`: Playwright's, plus an automatic check that no page in the test's browser
 * context reported a Content-Security-Policy violation (the browser logs each one to the
 * console). Every spec imports `test` and `expect` from here, so the whole suite proves the
 * policy (lib/http/csp.ts) holds for everything the app really does.
 */
import { expect, test as base } from "@playwright/test";

export type { Page } from "@playwright/test";
export { expect };

const VIOLATION = /Content Security Policy|Refused to (load|execute|connect|apply|create|frame|evaluate|compile)/i;

export const test = base.extend<{ cspGuard: undefined }>({
  cspGuard: [
    async ({ context }, use) => {
      const violations: string[] = [];
      context.on("console", (message) => {
        // An MCP App's frame runs under its own policy (lib/mcp-apps/frame-policy.ts); the
        // hostile-app tests provoke and check its refusals themselves.
        const where = message.location().url;
        if (where.includes("/api/mcp-apps/frame") || where.startsWith("about:srcdoc")) return;
        if (VIOLATION.test(message.text())) violations.push(message.text());
      });
      await use(undefined);
      expect(violations, "Content-Security-Policy violations").toEqual([]);
    },
    { auto: true },
  ],
});
