"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => undefined;

/**
 * The framework's floor under the page's start (docs/benchmarks.md, "First load against the
 * peers"): Next's runtime, React and one client component that, as the playground's server list
 * does, renders its button once mounted. `npm run bench -- --only peers` loads it beside the
 * playground: the time to its button is what any page of this stack pays before its own code.
 */
export function FloorProbe() {
  // False while the server renders and while React hydrates; true in the render after.
  const mounted = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return (
    <main style={{ padding: 24 }}>
      <h1>Code Mode Playground</h1>
      {mounted ? (
        <button type="button" className="primary">
          Add server
        </button>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </main>
  );
}
