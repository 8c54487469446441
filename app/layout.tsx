import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Code Mode Playground",
  description: "Chat with a model in code mode, run its program in a QuickJS sandbox, inspect every MCP tool call.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request: each response carries its own CSP nonce (proxy.ts), which a
  // prerendered page could not.
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
