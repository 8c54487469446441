/**
 * The page's channel as the production server runs it (Node only): `scripts/serve.mjs` loads
 * this file's build (`npm run build` bundles it into `.next/cmp/`) and hands it every upgrade.
 * The mechanics are lib/channel/node/channel-server.ts; this file binds them to this app: the
 * upgrade guard with this instance's hosts, the rate-limit client key, and the routes of
 * ../server/api-routes.ts (docs/channel.md, "The channel").
 */
import { createChannelServer } from "../../channel/node/channel-server";
import type { ChannelServer, ChannelServerLimits } from "../../channel/node/channel-server";
import { clientKey } from "../../http/server/client-address";
import { allowedHosts, positiveSetting } from "../../http/server/deployment";
import type { Env } from "../../http/server/deployment";
import { checkUpgrade } from "../../http/server/request-guard";
import { getStdioSessions } from "../../mcp/stdio/server/stdio-sessions";
import { dispatchApiRequest } from "../server/api-routes";

/** Options of `appChannel`. */
export interface AppChannelOptions {
  /** The environment the guards read (tests pass their own); process.env by default. */
  env?: () => Env;
  limits?: Partial<ChannelServerLimits>;
}

/**
 * This app's channel: upgrades on /api/channel carrying the page's API requests. Settings:
 * CMP_CHANNEL_HEARTBEAT_MS (how often the app pings each channel; one that does not echo a ping
 * by the next is dropped) and CMP_CHANNEL_MAX (channels at once over every client); options.limits win.
 */
export function appChannel(options: AppChannelOptions = {}): ChannelServer {
  const env = options.env ?? (() => process.env);
  const settings = env();
  const fromEnv: Partial<ChannelServerLimits> = {};
  const heartbeat = positiveSetting(settings.CMP_CHANNEL_HEARTBEAT_MS);
  if (heartbeat !== undefined) fromEnv.pingIntervalMs = Math.max(1_000, heartbeat);
  const max = positiveSetting(settings.CMP_CHANNEL_MAX);
  if (max !== undefined) fromEnv.maxChannels = Math.floor(max);
  return createChannelServer({
    dispatch: (request) => dispatchApiRequest(request),
    checkUpgrade: (headers) => checkUpgrade(headers, allowedHosts(env())),
    clientKey: (headers) => clientKey(headers, env()),
    // A page that is gone (closed, reloaded) frees its stdio servers at once; one whose channel
    // broke gets them back if it returns in time (stdio-sessions.ts, release).
    onChannelClosed: (channelId, pageGone) => getStdioSessions().release(channelId, { now: pageGone }),
    limits: { ...fromEnv, ...options.limits },
  });
}
