/**
 * The playground's OAuth Client ID Metadata Document: an authorization server that supports
 * URL-based client ids fetches it instead of asking for dynamic registration. Used only when
 * the app is served over https (lib/mcp/browser/browser-oauth.ts, pageIdentity).
 */
import { clientMetadataDocument } from "@/lib/mcp/oauth/client-metadata";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  return Response.json(clientMetadataDocument(new URL(request.url).origin), { headers: { "cache-control": "public, max-age=300" } });
}
