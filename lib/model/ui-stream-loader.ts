/** The AI SDK's UI message stream (./ui-stream.ts), loaded with the first model step (docs/speed.md, "The page's start"). */
import { loadLater } from "../bundle/load-later";
import type * as UiStream from "./ui-stream";

export const loadUiStream: () => Promise<typeof UiStream> = loadLater(() => import("./ui-stream"), "the model's stream reader");
