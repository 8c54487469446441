// What the bench starts (browsers, the app's server, the peers' servers) ends with the bench,
// however the bench ends: a failed run, an uncaught error, or a signal (a timeout, Ctrl+C). A
// browser left behind keeps its page running and takes the cores the next run measures; a
// detached server is out of reach of the terminal's Ctrl+C.

const cleanups = new Set<() => void>();
let installed = false;

/** Calls `kill` (synchronously) when this process ends, unless the returned function is called first. */
export function endWithThisProcess(kill: () => void): () => void {
  cleanups.add(kill);
  if (!installed) {
    installed = true;
    process.once("exit", () => {
      for (const cleanup of cleanups) {
        try {
          cleanup();
        } catch {
          // Best effort: the process is ending, and the others still need their turn.
        }
      }
    });
    // A signal ends the process without "exit" unless someone listens: end it the usual way, so
    // the handler above runs (status 128 + the signal's number, as the shell reports it).
    for (const [signal, status] of [
      ["SIGINT", 130],
      ["SIGTERM", 143],
      ["SIGHUP", 129],
    ] as const) {
      process.once(signal, () => process.exit(status));
    }
  }
  return () => cleanups.delete(kill);
}

/** Signals a detached child's whole process group, if it is still there. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGTERM"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
