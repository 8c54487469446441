import { headers } from "next/headers";
import { Playground } from "@/components/playground/Playground";
import { earlyClicksScript } from "@/lib/playground/browser/early-clicks";
import { SANDBOX_WORKER_PATH } from "@/lib/sandbox/browser/create-browser-worker";
import { earlyWorkerScript } from "@/lib/sandbox/browser/early-worker";

export default async function Page() {
  // With the page's CSP nonce (proxy.ts): the sandbox worker starts while the page's JavaScript
  // loads (lib/sandbox/browser/early-worker.ts); the buttons clicked before hydration are noted,
  // and clicked again once hydrated (lib/playground/browser/early-clicks.ts).
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: earlyWorkerScript(SANDBOX_WORKER_PATH) }} />
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: earlyClicksScript() }} />
      <Playground />
    </>
  );
}
