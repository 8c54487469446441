/**
 * POST /api/share `{ share: "v1.…" }` → 201/200 `{ id, path }`: stores a share too large for a
 * link under its content address (lib/share/server/short-link.ts). Rate-limited per client and
 * globally; configured by the CMP_SHARE_* variables (lib/share/server/short-link-runtime.ts).
 */
import { clientKey } from "@/lib/http/server/client-address";
import { enforceLimits } from "@/lib/http/rate-limit";
import { readJsonBody } from "@/lib/http/read-body";
import { route } from "@/lib/http/server/route";
import { RouteError } from "@/lib/http/route-error";
import { createShareRequestSchema, MAX_CREATE_BODY_BYTES } from "@/lib/share/api-schema";
import type { CreateShareResponse } from "@/lib/share/api-schema";
import { saveShortLink } from "@/lib/share/server/short-link";
import { shortLinkRuntime } from "@/lib/share/server/short-link-runtime";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const POST = route({ surface: "share" }, async (request) => {
  const links = shortLinkRuntime();
  if (!links.enabled) throw new RouteError("not_found:share", "Short links are turned off on this server.");
  const client = clientKey(request.headers, process.env);
  await enforceLimits("share", [
    [links.createLimiter, client],
    [links.globalCreateLimiter, "*"],
  ]);
  const parsed = createShareRequestSchema.safeParse(await readJsonBody(request, MAX_CREATE_BODY_BYTES, "share"));
  if (!parsed.success) throw new RouteError("bad_request:share", 'Send { "share": "v1.…" }.');
  // Each client may store so many bytes a day, so no one client fills the store for everyone.
  await enforceLimits("share", [[links.clientBytesLimiter, client, Buffer.byteLength(parsed.data.share)]]);

  const saved = await saveShortLink(links.store, parsed.data.share);
  if (!saved.ok) throw saved.error;
  const payload: CreateShareResponse = { id: saved.id, path: `/s/${saved.id}` };
  return Response.json(payload, { status: saved.created ? 201 : 200, headers: { "cache-control": "no-store" } });
});
