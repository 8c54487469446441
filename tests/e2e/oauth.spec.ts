import { expect, test, type Page } from "./fixtures";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";
import { startOAuthMcpServer } from "../fixtures/mcp/oauth-server";
import type { OAuthMcpServer } from "../fixtures/mcp/oauth-server";

// An OAuth-protected MCP server on loopback (the SDK's authorization and resource server pieces,
// tests/fixtures/mcp/oauth-server.ts) with a real consent page.
let server: OAuthMcpServer;

test.beforeAll(async () => {
  server = await startOAuthMcpServer({ consent: "page" });
});

test.afterAll(async () => {
  await server.close();
});

/** The playground with the OAuth server added, "Sign in" pressed, and the consent popup open. */
async function startSignIn(page: Page) {
  const playground = new PlaygroundPage(page);
  const servers = new ServersPanel(page);
  await playground.goto();
  await servers.addServer("guarded", server.url);
  const card = servers.root.getByRole("listitem", { name: "Server guarded" });
  const popupOpened = page.waitForEvent("popup");
  await card.getByRole("button", { name: "Sign in" }).click();
  return { playground, card, popup: await popupOpened };
}

test.describe("OAuth", () => {
  test("sign in through the popup, call a tool from a program, survive a reload, forget secrets revokes the tokens", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.addServer("guarded", server.url);
    await expect(servers.status("guarded")).toHaveText("error", { timeout: 20_000 });
    const card = servers.root.getByRole("listitem", { name: "Server guarded" });
    await expect(card.getByRole("alert")).toContainText('guarded uses OAuth: press "Sign in"');

    const popupOpened = page.waitForEvent("popup");
    await card.getByRole("button", { name: "Sign in" }).click();
    const popup = await popupOpened;
    await popup.getByRole("button", { name: "Approve" }).click();
    await popup.waitForEvent("close");
    await servers.expectConnected("guarded");

    // The flow view (open the OAuth section): each step, no secret.
    await card.getByText(/OAuth · signed in \(mcp:tools\)/).click();
    const flow = card.getByRole("list", { name: "OAuth flow of guarded" });
    for (const step of [
      "HTTP 401 from the MCP server",
      "Protected resource metadata (RFC 9728)",
      "Authorization server metadata (RFC 8414)",
      "Dynamic client registration (RFC 7591)",
      "Authorization (browser)",
      "Token (authorization code + PKCE)",
    ]) {
      await expect(flow).toContainText(step);
    }

    await playground.setCode("return await guarded.whoami({});");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    await playground.showValueAsText();
    await expect(playground.value).toContainText("mcp:tools");
    const text = await page.locator("body").innerText();
    for (const token of server.issued) expect(text).not.toContain(token);

    // The session survives a reload: no popup, connected with the stored token.
    await page.reload();
    await servers.expectConnected("guarded");
    expect(server.issued).toHaveLength(1);

    // Forget secrets: the tokens are revoked at the authorization server and gone here.
    await servers.openServersTab();
    await servers.root.getByRole("button", { name: "Forget secrets" }).click();
    await servers.root.getByRole("button", { name: "Forget them" }).click();
    await expect.poll(() => server.revoked.has(server.issued[0] ?? "")).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("code-mode-playground:mcp-oauth:v1"))).toBeNull();
    await card.getByRole("button", { name: "Reconnect" }).click();
    await expect(card.getByRole("button", { name: "Sign in" })).toBeVisible();
  });

  test("a refused consent is a clear error and the app stays usable", async ({ page }) => {
    const { playground, card, popup } = await startSignIn(page);
    await popup.getByRole("button", { name: "Deny" }).click();
    await popup.waitForEvent("close");
    await expect(card.getByRole("alert")).toContainText("The authorization was refused (access_denied): The person declined.");
    await expect(card.getByRole("button", { name: "Sign in" })).toBeVisible();
    await playground.setCode("return 1 + 1");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
  });

  test("a sign-in window closed midway stops the flow with a clear error", async ({ page }) => {
    const { card, popup } = await startSignIn(page);
    await popup.getByRole("button", { name: "Approve" }).waitFor();
    await popup.close();
    await expect(card.getByRole("alert")).toContainText("The sign-in window was closed before it finished");
  });

  test("with popups blocked, sign-in goes on in this window and comes back connected", async ({ page }) => {
    // What a popup blocker does to window.open.
    await page.addInitScript("window.open = () => null;");
    const playground = new PlaygroundPage(page);
    const servers = new ServersPanel(page);
    await playground.goto();
    await servers.addServer("guarded", server.url);
    const card = servers.root.getByRole("listitem", { name: "Server guarded" });
    await card.getByRole("button", { name: "Sign in" }).click();
    // This window is now on the authorization server's consent page.
    await page.getByRole("button", { name: "Approve" }).click();
    // The callback brings it back to the playground, which exchanges the code.
    await expect(page).toHaveURL(/\/$/);
    await servers.expectConnected("guarded");
    await playground.setCode("return await guarded.whoami({});");
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
  });
});
