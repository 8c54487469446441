// Next.js collects anonymous telemetry unless told not to, and `next build` prints a notice
// about it. The playground's own commands (npm run build, npm start, npm run serve, npm run dev)
// run Next without it unless the person opts in with CMP_NEXT_TELEMETRY=1.

/** Turns Next's telemetry off in `env` (process.env by default) unless CMP_NEXT_TELEMETRY=1; returns `env`. */
export function quietNext(env = process.env) {
  if (env.CMP_NEXT_TELEMETRY !== "1") env.NEXT_TELEMETRY_DISABLED ??= "1";
  return env;
}
