/**
 * Counts a component's renders when a test asks for it: a test page sets
 * `window.__cmpRenderCounts = {}` before the app loads (Playwright's addInitScript), and each
 * panel counts itself there; otherwise this is one property read. The e2e suite uses it to check
 * that a streaming chat answer re-renders the chat and no other panel (docs/page-state.md,
 * "Page state").
 */
export function countRender(name: string): void {
  if (typeof window === "undefined") return;
  const counts = (window as { __cmpRenderCounts?: Record<string, number> }).__cmpRenderCounts;
  if (counts) counts[name] = (counts[name] ?? 0) + 1;
}
