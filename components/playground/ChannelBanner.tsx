"use client";

import { useStore } from "@/components/hooks/use-store";
import { useEffect, useState } from "react";
import { appChannel } from "@/lib/channel/browser/app-channel";
import type { ChannelStatus } from "@/lib/channel/browser/channel-client";
import styles from "./ChannelBanner.module.css";

const NONE: ChannelStatus = { state: "connecting", attempt: 0, streams: 0 };

/** Seconds until `at`, ticking while it is in the future. */
function useSecondsUntil(at: number | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [at]);
  return at === undefined ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Says in words when the page's channel to the app is down (docs/channel.md, "The channel"):
 * what happened, that calls in flight failed, when the next attempt is, and a button to try now.
 * Says nothing while the channel is open, connecting for the first time, or absent (plain HTTP).
 */
export function ChannelBanner() {
  const [mounted, setMounted] = useState(false);
  // The channel needs `window`; subscribe only after mount so the server render and hydration agree.
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useEffect(() => setMounted(true), []);
  const channel = mounted ? appChannel() : undefined;
  const status = useStore(channel, undefined, { fallback: NONE });
  const seconds = useSecondsUntil(status.state === "reconnecting" ? status.retryAt : undefined);
  if (status.state !== "reconnecting" || !channel) return null;
  return (
    <div className={styles.banner} role="alert" data-testid="channel-banner">
      <strong>Disconnected from the app.</strong>
      <span>
        {status.message} Calls that were running failed; tools and servers come back when it reconnects.{" "}
        {seconds !== undefined && seconds > 0 ? `Trying again in ${seconds} s (attempt ${status.attempt}).` : `Reconnecting (attempt ${status.attempt})…`}
      </span>
      <button type="button" onClick={() => channel.reconnectNow()}>
        Retry now
      </button>
    </div>
  );
}
