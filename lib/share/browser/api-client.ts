/**
 * The browser side of the short-link API (hooks call it; components never fetch). `fetch` is
 * injected so tests run it against the route handlers directly. Failures are values with the
 * server's message when it sent one.
 */
import { SHARE_API_PATH } from "../api-schema";
import { readRouteError } from "../../http/route-error";
import type { CreateShareResponse, GetShareResponse } from "../api-schema";
import { isShareId } from "../share-id";

/** A fetch function (the global one, or a test double). */
export type ShareFetch = (input: string, init?: RequestInit) => Promise<Response>;

/** A client call's outcome. */
export type ShareClientResult<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

/** Stores and loads short links. */
export interface ShareClient {
  save(share: string): Promise<ShareClientResult<CreateShareResponse>>;
  load(id: string): Promise<ShareClientResult<GetShareResponse>>;
}

async function errorOf(response: Response): Promise<{ ok: false; status: number; message: string }> {
  const message = (await readRouteError(response))?.message ?? `The server answered ${response.status}.`;
  return { ok: false, status: response.status, message };
}

async function call<T>(fetchFn: ShareFetch, url: string, init: RequestInit | undefined, valid: (body: unknown) => body is T): Promise<ShareClientResult<T>> {
  let response: Response;
  try {
    response = await fetchFn(url, init);
  } catch {
    return { ok: false, status: 0, message: "Could not reach the server for the short link." };
  }
  if (!response.ok) return errorOf(response);
  const body: unknown = await response.json().catch(() => undefined);
  return valid(body) ? { ok: true, value: body } : { ok: false, status: response.status, message: "The server's answer was not understood." };
}

function isCreated(body: unknown): body is CreateShareResponse {
  return typeof body === "object" && body !== null && isShareId((body as { id?: unknown }).id) && typeof (body as { path?: unknown }).path === "string";
}

function isLoaded(body: unknown): body is GetShareResponse {
  return typeof body === "object" && body !== null && isShareId((body as { id?: unknown }).id) && typeof (body as { share?: unknown }).share === "string";
}

/** A client for the app's own short-link routes (`base` is "" for same-origin). */
export function createShareClient(fetchFn: ShareFetch, base = ""): ShareClient {
  return {
    save: (share) =>
      call(
        fetchFn,
        `${base}${SHARE_API_PATH}`,
        { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ share }) },
        isCreated,
      ),
    load: (id) =>
      isShareId(id)
        ? call(fetchFn, `${base}${SHARE_API_PATH}/${id}`, undefined, isLoaded)
        : Promise.resolve({ ok: false, status: 400, message: "This short link's id is malformed." }),
  };
}
