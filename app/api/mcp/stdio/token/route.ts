/**
 * Hands the per-process local token to the app's own page. Same-origin fetches only: a foreign
 * site is refused (Sec-Fetch-Site, Origin), could not read the answer anyway (no CORS headers),
 * and a DNS-rebound name fails the Host check. See lib/mcp/local-guard.ts.
 */
import { getLocalToken } from "@/lib/mcp/local-guard";
import { refuseNonLocal, tokenResponse } from "@/lib/mcp/stdio-bridge";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(request: Request): Response {
  const refusal = refuseNonLocal(request, "token");
  if (refusal) return refusal.toResponse();
  return tokenResponse(getLocalToken());
}
