/**
 * GET /api/share/<id> → `{ id, share: "v1.…" }`: a stored share for the page to decode
 * (lib/share/short-link.ts). Ids are content addresses, so a found share never changes and may
 * be cached for good. Rate-limited per client.
 */
import type { GetShareResponse } from "@/lib/share/api-schema";
import { clientKeyFrom } from "@/lib/share/client-key";
import { ShareRouteError } from "@/lib/share/errors";
import { loadShortLink, refusedByRateLimit } from "@/lib/share/short-link";
import { shortLinkRuntime } from "@/lib/share/short-link-runtime";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const links = shortLinkRuntime();
  if (!links.enabled) return new ShareRouteError("not_found:share", "Short links are turned off on this server.").toResponse();
  const refused = refusedByRateLimit(links.readLimiter.take(clientKeyFrom(request.headers)));
  if (refused) return refused.toResponse();

  const { id } = await context.params;
  const loaded = await loadShortLink(links.store, id);
  if (!loaded.ok) return loaded.error.toResponse();
  const payload: GetShareResponse = { id, share: loaded.share };
  return Response.json(payload, { headers: { "cache-control": "public, max-age=31536000, immutable" } });
}
