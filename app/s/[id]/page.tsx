import { notFound, redirect } from "next/navigation";
import { storedShareTarget } from "@/lib/share/browser/location";
import { isShareId } from "@/lib/share/share-id";

/**
 * A short link, `/s/<id>`: redirects to the playground with `#share-id=<id>`, and the page's
 * share hook fetches and decodes the snapshot client-side (GET /api/share/<id>). Redirecting
 * keeps one page that opens shares, whether they come inline in a link or from the store; the
 * store is not read here, so a missing id is reported by the banner like any other bad link.
 */
export default async function ShortLinkPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isShareId(id)) notFound();
  redirect(storedShareTarget(id));
}
