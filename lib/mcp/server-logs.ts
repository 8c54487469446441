/**
 * What servers log (`notifications/message`): per server, the latest MAX_ENTRIES messages with
 * their level, logger and time, shown in the server's card; the level the person picked goes to
 * the server as `logging/setLevel`. A server that floods is cut off per second: past
 * MAX_PER_SECOND messages the rest of that second are counted, not kept, and one entry says how
 * many were dropped. Text only, secrets removed, capped in length. Pure; the state-class pattern.
 */
import { Store } from "../state/store";
import type { LoggingLevel, LoggingMessageNotification } from "@modelcontextprotocol/client";
import { removeSecrets } from "../secrets/patterns";

/** Levels in the order of RFC 5424, least severe first (what a level select offers). */
export const LOG_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

export const MAX_ENTRIES = 500;
export const MAX_PER_SECOND = 200;
const MAX_TEXT = 2_000;

/** One message as shown. */
export interface ServerLogEntry {
  at: number;
  level: LoggingLevel | "dropped";
  logger?: string;
  text: string;
  /** The call the server was serving when it logged, if any. */
  callId?: number;
}

/** The message's data as text: strings as they are, anything else as JSON. */
export function logText(data: unknown): string {
  let text: string;
  if (typeof data === "string") text = data;
  else {
    try {
      text = JSON.stringify(data) ?? String(data);
    } catch {
      text = String(data);
    }
  }
  text = removeSecrets(text);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

interface ServerLog {
  entries: readonly ServerLogEntry[];
  second: number;
  inSecond: number;
  dropped: number;
}

const EMPTY: readonly ServerLogEntry[] = [];

/** What the logs show: each server's entries and the level the person asked it for, by server name. */
export interface ServerLogs {
  entries: Readonly<Record<string, readonly ServerLogEntry[]>>;
  levels: Readonly<Record<string, LoggingLevel>>;
}

/** Every server's log by server name: a store (lib/state/store.ts); the flood counters stay inside. */
export class ServerLogStore extends Store<ServerLogs> {
  private readonly logs = new Map<string, ServerLog>();

  constructor(private readonly now: () => number = Date.now) {
    super({ entries: {}, levels: {} });
  }

  /** A server's entries, oldest first; the same array until it changes. */
  entries(server: string): readonly ServerLogEntry[] {
    const { entries } = this.snapshot();
    return (Object.hasOwn(entries, server) ? entries[server] : undefined) ?? EMPTY;
  }

  /** The level the person asked the server for, if they did. */
  level(server: string): LoggingLevel | undefined {
    const { levels } = this.snapshot();
    return Object.hasOwn(levels, server) ? levels[server] : undefined;
  }

  setLevel(server: string, level: LoggingLevel): void {
    const current = this.snapshot();
    this.set({ ...current, levels: { ...current.levels, [server]: level } });
  }

  /** Adds a message; returns the entry kept, or undefined when the flood cut it off. */
  add(server: string, params: LoggingMessageNotification["params"], callId?: number): ServerLogEntry | undefined {
    const at = this.now();
    const second = Math.floor(at / 1000);
    const log = this.logs.get(server) ?? { entries: EMPTY, second, inSecond: 0, dropped: 0 };
    let entries = log.entries;
    if (second !== log.second) {
      if (log.dropped > 0)
        entries = [...entries, { at, level: "dropped", text: `${log.dropped} more messages in one second were dropped (the server floods its log).` }];
      log.second = second;
      log.inSecond = 0;
      log.dropped = 0;
    }
    if (log.inSecond >= MAX_PER_SECOND) {
      log.dropped++;
      if (entries !== log.entries) this.commit(server, log, entries);
      else this.logs.set(server, log);
      return undefined;
    }
    log.inSecond++;
    const entry: ServerLogEntry = {
      at,
      level: params.level,
      ...(params.logger ? { logger: params.logger.slice(0, 200) } : {}),
      text: logText(params.data),
      ...(callId !== undefined ? { callId } : {}),
    };
    this.commit(server, log, [...entries, entry]);
    return entry;
  }

  /** Forgets a server's log (it was removed). */
  clear(server: string): void {
    if (!this.logs.delete(server)) return;
    const current = this.snapshot();
    const { [server]: _gone, ...entries } = current.entries;
    this.set({ ...current, entries });
  }

  private commit(server: string, log: ServerLog, entries: readonly ServerLogEntry[]): void {
    log.entries = entries.length > MAX_ENTRIES ? entries.slice(entries.length - MAX_ENTRIES) : entries;
    this.logs.set(server, log);
    const current = this.snapshot();
    this.set({ ...current, entries: { ...current.entries, [server]: log.entries } });
  }
}
