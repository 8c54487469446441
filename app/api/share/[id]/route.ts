/**
 * GET /api/share/<id> → `{ id, share: "v1.…" }`: a stored share for the page to decode
 * (lib/share/server/short-link.ts). Ids are content addresses, so a found share never changes and may
 * be cached until it expires. Rate-limited per client.
 */
import { clientKey } from "@/lib/http/server/client-address";
import { enforceLimits } from "@/lib/http/rate-limit";
import { route } from "@/lib/http/server/route";
import { RouteError } from "@/lib/http/route-error";
import type { GetShareResponse } from "@/lib/share/api-schema";
import { loadShortLink } from "@/lib/share/server/short-link";
import { shortLinkRuntime } from "@/lib/share/server/short-link-runtime";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = route({ surface: "share" }, async (request, context: { params: Promise<{ id: string }> }) => {
  const links = shortLinkRuntime();
  if (!links.enabled) throw new RouteError("not_found:share", "Short links are turned off on this server.");
  await enforceLimits("share", [[links.readLimiter, clientKey(request.headers, process.env)]]);
  const { id } = await context.params;
  const loaded = await loadShortLink(links.store, id);
  if (!loaded.ok) throw loaded.error;
  const payload: GetShareResponse = { id, share: loaded.share };
  return Response.json(payload, { headers: { "cache-control": "private, max-age=3600" } });
});
