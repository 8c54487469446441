// A process that serves only the app's end of the channel (createChannelServer), for the
// channel's load bench (channel-load.ts): its RSS is the channel's and nothing else's. argv[2]
// is the module to load it from (today's lib/channel/node/channel-server.ts, or an earlier
// version the bench wrote beside it). Prints `port <n>` when listening.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import type { createChannelServer as Create } from "../../lib/channel/node/channel-server";

const modulePath = process.argv[2];
if (!modulePath) throw new Error("usage: channel-host.ts <channel-server module>");
const { createChannelServer } = (await import(pathToFileURL(modulePath).href)) as { createChannelServer: typeof Create };

/** A body of `kb` KiB, handed out in 16 KiB chunks as its reader asks. */
function blob(kb: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(16 * 1024).fill(120);
  let left = kb * 1024;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (left <= 0) return controller.close();
        const size = Math.min(left, chunk.byteLength);
        left -= size;
        controller.enqueue(chunk.subarray(0, size));
      },
    },
    { highWaterMark: 0 },
  );
}

const channel = createChannelServer({
  dispatch: (request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/api/mcp/stdio/blob") return undefined;
    return Promise.resolve(new Response(blob(Number(url.searchParams.get("kb") ?? "1"))));
  },
  checkUpgrade: () => undefined,
  clientKey: () => "bench",
  limits: { maxChannelsPerClient: 1_024, pingIntervalMs: 2_000 },
});
const server = http.createServer((_req, res) => res.writeHead(404).end());
server.on("upgrade", (req, socket, head) => {
  if (!channel.handleUpgrade(req, socket, head)) socket.destroy();
});
server.listen(0, "127.0.0.1", () => console.log(`port ${(server.address() as AddressInfo).port}`));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
