/**
 * The short-link HTTP API, shared by the route handlers and the browser client:
 * `POST /api/share { share }` → `{ id, path }`; `GET /api/share/<id>` → `{ id, share }`.
 * `share` is link text (`v1.…`), so the server stores exactly what a link would carry, after
 * validating it against the same allow-list.
 */
import * as z from "zod";
import { SHARE_CAPS } from "./caps";

/** Route for storing a share. */
export const SHARE_API_PATH = "/api/share";

/** Body of POST /api/share. */
export const createShareRequestSchema = z.object({
  share: z.string().min(1).max(SHARE_CAPS.snapshotChars),
});

/** Largest POST body accepted, in bytes: the share plus its JSON envelope. */
export const MAX_CREATE_BODY_BYTES = SHARE_CAPS.snapshotChars + 1024;

/** Answer of POST /api/share (201 when new, 200 when the same share was already stored). */
export interface CreateShareResponse {
  id: string;
  /** App-relative short link, `/s/<id>`. */
  path: string;
}

/** Answer of GET /api/share/<id>. */
export interface GetShareResponse {
  id: string;
  share: string;
}
