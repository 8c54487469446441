import { describe, expect, it } from "vitest";
import { GET } from "@/app/oauth/client-metadata.json/route";
import { pageIdentity } from "@/lib/mcp/browser/browser-oauth";

describe("the Client ID Metadata Document", () => {
  it("names its own URL as client_id and the app's callback as the redirect URI; the page uses it only over https", async () => {
    const response = GET(new Request("https://play.example/oauth/client-metadata.json"));
    const document = (await response.json()) as Record<string, unknown>;
    expect(document).toMatchObject({
      client_id: "https://play.example/oauth/client-metadata.json",
      redirect_uris: ["https://play.example/oauth/callback"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    });
    expect(pageIdentity("https://play.example")).toMatchObject({ clientMetadataUrl: document.client_id, redirectUrl: "https://play.example/oauth/callback" });
    expect(pageIdentity("http://127.0.0.1:3000").clientMetadataUrl).toBeUndefined();
  });
});
