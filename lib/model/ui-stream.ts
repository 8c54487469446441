/**
 * The AI SDK's UI message stream, reader and chat transport, in one module that
 * lib/model/ui-stream-loader.ts loads with the first model step rather than with the page
 * (docs/speed.md, "The page's start").
 */
export { DefaultChatTransport, readUIMessageStream } from "ai";
