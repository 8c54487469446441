import type { Metadata } from "next";
import { OAuthCallback } from "@/components/oauth/OAuthCallback";

export const metadata: Metadata = { title: "Signing in · Code Mode Playground", referrer: "no-referrer" };

/** The OAuth redirect URI (lib/mcp/browser/oauth-popup.ts). */
export default function Page() {
  return <OAuthCallback />;
}
