/**
 * How often a sandbox worker with a run on posts `alive` (protocol.ts). Its own module so the
 * main thread can share it without importing the worker's code.
 */
export const ALIVE_INTERVAL_MS = 250;
