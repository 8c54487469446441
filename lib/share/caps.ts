/**
 * Size caps of the share format. One place, so the schema, the decoder, the store and the UI
 * agree on what "too large" means. Sizes are in characters for text the person sees and in
 * bytes for what crosses the wire or lands on disk.
 */

const KB = 1024;
const MB = 1024 * KB;

/** Every cap of the share format. */
export const SHARE_CAPS = Object.freeze({
  /**
   * Encoded text that still goes into a URL fragment. Browsers accept far longer URLs
   * (Chromium ~2 MB), but chat apps, mail clients and QR codes cut or refuse long links.
   */
  linkChars: 32 * KB,
  /** Encoded (compressed) text of one stored snapshot: the short-link store's per-item cap. */
  snapshotChars: 1 * MB,
  /** Decompressed JSON: stops zip bombs (a 1 MB snapshot of zeros inflates to ~1 GB). */
  jsonBytes: 8 * MB,
  /** JSON nesting depth: recursive validators would overflow the stack on `[[[[…` payloads. */
  jsonDepth: 64,
  servers: 64,
  toolsPerServer: 1_000,
  messages: 1_000,
  partsPerMessage: 500,
  runs: 100,
  /** Serialised size of all recorded runs together. */
  runsBytes: 4 * MB,
  codeChars: 512 * KB,
  skills: 50,
  /** Serialised size of all skills together (code, schemas, tests). */
  skillsBytes: 2 * MB,
  promptChars: 128 * KB,
  /** Names and short labels: servers, tools, models, secret slots. */
  nameChars: 200,
  descriptionChars: 32 * KB,
  urlChars: 2 * KB,
  args: 100,
  argChars: 4 * KB,
  secretSlots: 50,
});
