import { headers } from "next/headers";
import { Playground } from "@/components/playground/Playground";
import { earlyClicksScript } from "@/lib/playground/browser/early-clicks";

export default async function Page() {
  // With the page's CSP nonce (proxy.ts): notes the buttons clicked before hydration, which the
  // page clicks again once hydrated (lib/playground/browser/early-clicks.ts).
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: earlyClicksScript() }} />
      <Playground />
    </>
  );
}
