/**
 * POST /api/share `{ share: "v1.…" }` → 201/200 `{ id, path }`: stores a share too large for a
 * link under its content address (lib/share/short-link.ts). Rate-limited per client and
 * globally; configured by the CMP_SHARE_* variables (lib/share/short-link-runtime.ts).
 */
import { createShareRequestSchema, MAX_CREATE_BODY_BYTES } from "@/lib/share/api-schema";
import type { CreateShareResponse } from "@/lib/share/api-schema";
import { clientKeyFrom } from "@/lib/share/client-key";
import { ShareRouteError } from "@/lib/share/errors";
import { readBodyText } from "@/lib/share/read-body";
import { refusedByRateLimit, saveShortLink } from "@/lib/share/short-link";
import { shortLinkRuntime } from "@/lib/share/short-link-runtime";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const NO_STORE = { "cache-control": "no-store" };

export async function POST(request: Request): Promise<Response> {
  const links = shortLinkRuntime();
  if (!links.enabled) return new ShareRouteError("not_found:share", "Short links are turned off on this server.").toResponse();
  const refused =
    refusedByRateLimit(links.createLimiter.take(clientKeyFrom(request.headers))) ?? refusedByRateLimit(links.globalCreateLimiter.take("*"));
  if (refused) return refused.toResponse();

  const body = await readBodyText(request, MAX_CREATE_BODY_BYTES);
  if (!body.ok) return new ShareRouteError("too_large:share", `The request is larger than ${MAX_CREATE_BODY_BYTES} bytes.`).toResponse();
  let json: unknown;
  try {
    json = JSON.parse(body.text);
  } catch {
    return new ShareRouteError("bad_request:share", "The request body is not JSON.").toResponse();
  }
  const parsed = createShareRequestSchema.safeParse(json);
  if (!parsed.success) return new ShareRouteError("bad_request:share", 'Send { "share": "v1.…" }.').toResponse();

  const saved = await saveShortLink(links.store, parsed.data.share);
  if (!saved.ok) return saved.error.toResponse();
  const payload: CreateShareResponse = { id: saved.id, path: `/s/${saved.id}` };
  return Response.json(payload, { status: saved.created ? 201 : 200, headers: NO_STORE });
}
