/**
 * A path into a JSON value as a person reads it in an error: `mcpServers.web.headers["x-api key"]`,
 * `servers[2].url`, `(root)` for the value itself. The one place it is said (docs/ARCHITECTURE.md,
 * "Where each concept lives").
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    const k = String(key);
    if (typeof key === "number") out += `[${k}]`;
    else out += /^[A-Za-z_$][\w$-]*$/.test(k) ? (out === "" ? k : `.${k}`) : `[${JSON.stringify(k)}]`;
  }
  return out === "" ? "(root)" : out;
}
