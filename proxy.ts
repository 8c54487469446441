/**
 * Next's request proxy (the file formerly called middleware): gives every page response a
 * Content-Security-Policy with a fresh nonce (lib/http/csp.ts). The policy goes on the
 * request too, which is how Next learns the nonce and puts it on its own scripts. API routes
 * and static files are left alone: routes answer JSON, and the sandbox worker (/_sandbox/) has a
 * policy of its own (next.config.js).
 */
import { NextResponse } from "next/server";
import type { NextRequest } from "next/server";
import { buildCsp, CONNECT_COOKIE, parseConnectOrigins } from "@/lib/http/csp";

export function proxy(request: NextRequest): NextResponse {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const nonce = btoa(String.fromCharCode(...bytes));
  const policy = buildCsp({
    nonce,
    connectOrigins: parseConnectOrigins(request.cookies.get(CONNECT_COOKIE)?.value),
    dev: process.env.NODE_ENV === "development",
  });
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [{ source: "/((?!api/|_next/static|_next/image|_sandbox/|favicon.ico|icon.svg).*)" }],
};
