"use client";

import { useEffect, useState } from "react";
import { deliverCallback } from "@/lib/mcp/browser/oauth-popup";

/** The page authorization servers send the person back to; see deliverCallback. */
export function OAuthCallback() {
  const [text, setText] = useState("Finishing sign-in…");
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const refused = params.get("error");
    const delivery = deliverCallback();
    if (delivery === "same-window") return;
    // Text only: whatever the authorization server put in the URL is never rendered as markup.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setText(
      refused
        ? `The authorization server answered "${refused}". The playground shows what happened on the server's card; this window can be closed.`
        : delivery === "popup"
          ? "Signed in. This window closes itself; if it stays open, close it."
          : 'Signed in, but the playground window that started this is gone: open the playground and press "Sign in" again.',
    );
    if (delivery === "popup") window.close();
  }, []);
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", padding: "2rem", maxWidth: "36rem" }}>
      <h1 style={{ fontSize: "1.2rem" }}>Code Mode Playground</h1>
      <p role="status">{text}</p>
    </main>
  );
}
