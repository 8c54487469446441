/**
 * Opening a share from wherever it came: an inline link, a short link (fetched through the
 * injected client) or a file. One result shape for all three, so the banner has one thing to
 * show. Nothing here runs code or connects to a server.
 */
import type { ShareClient } from "./api-client";
import { decodeShareState } from "../decode";
import { readShareFile } from "../file-format";
import type { ShareLocation } from "./location";
import type { ShareState } from "../schema";

/** Where an opened share came from. */
export type ShareSource = "link" | "short-link" | "file";

/** An opened share with notes for the person, or why it could not be opened. */
export type OpenShareResult = { ok: true; source: ShareSource; state: ShareState; warnings: string[] } | { ok: false; source: ShareSource; message: string };

/** Opens what a location points at (anything but `none`). */
export async function openShareLocation(found: Exclude<ShareLocation, { kind: "none" }>, client: ShareClient): Promise<OpenShareResult> {
  if (found.kind === "invalid") return { ok: false, source: "short-link", message: found.message };
  let encoded = found.kind === "link" ? found.encoded : undefined;
  const source: ShareSource = found.kind === "link" ? "link" : "short-link";
  if (found.kind === "stored") {
    const loaded = await client.load(found.id);
    if (!loaded.ok) return { ok: false, source, message: loaded.message };
    encoded = loaded.value.share;
  }
  const decoded = await decodeShareState(encoded ?? "");
  return decoded.ok ? { ok: true, source, state: decoded.state, warnings: decoded.warnings } : { ok: false, source, message: decoded.error.message };
}

/** Opens an exported share file's text. */
export function openShareFile(text: string): OpenShareResult {
  const read = readShareFile(text);
  return read.ok ? { ok: true, source: "file", state: read.state, warnings: read.warnings } : { ok: false, source: "file", message: read.error.message };
}
