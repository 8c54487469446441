/**
 * Filtering the waterfall: by server, tool and status, and a search in arguments, results and
 * errors. Search text is built once per call record (records are immutable, so a WeakMap keyed
 * by the record is a safe cache) and capped, so typing into the search box over 10 000 calls
 * costs one pass of `includes`, not 10 000 JSON.stringify calls per keystroke. Pure.
 */
import type { CallRecord } from "./call-records";

/** A call's status as the waterfall colours it: the record's status, or "waiting" for approval. */
export type DisplayStatus = "running" | "waiting" | "ok" | "error" | "warning" | "cancelled";

/** Every display status, in legend order. */
export const DISPLAY_STATUSES: readonly DisplayStatus[] = ["ok", "error", "warning", "waiting", "running", "cancelled"];

/** What the waterfall shows; an empty or absent set means "all". */
export interface WaterfallFilter {
  servers?: ReadonlySet<string>;
  /** "server.tool" labels (toolLabel). */
  tools?: ReadonlySet<string>;
  statuses?: ReadonlySet<DisplayStatus>;
  search?: string;
}

/** Characters of a call's JSON kept for search; a 2 MB result is searched in its first part. */
export const SEARCH_TEXT_CHARS = 32 * 1024;

/** The status to colour a call by. */
export function displayStatus(record: CallRecord): DisplayStatus {
  return record.status === "running" && record.approval === "waiting" ? "waiting" : record.status;
}

/** The server a call went to (original name once the host reported it). */
export function serverOf(record: CallRecord): string {
  return record.server ?? record.namespace;
}

/** "server.tool" for filters and labels. */
export function toolLabel(record: CallRecord): string {
  return `${serverOf(record)}.${record.tool ?? record.name}`;
}

const texts = new WeakMap<CallRecord, string>();

/** Lower-case text of a call's name, arguments, result and error, for search (cached per record). */
export function searchText(record: CallRecord): string {
  let text = texts.get(record);
  if (text === undefined) {
    text = [toolLabel(record), jsonText(record.args), jsonText(record.value), record.error ?? "", record.validation ?? ""].join("\n").toLowerCase();
    texts.set(record, text);
  }
  return text;
}

function jsonText(value: unknown): string {
  if (value === undefined) return "";
  try {
    const json = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
    return json.length > SEARCH_TEXT_CHARS ? json.slice(0, SEARCH_TEXT_CHARS) : json;
  } catch {
    return "";
  }
}

/** True when the filter has nothing to narrow by. */
export function isFilterEmpty(filter: WaterfallFilter | undefined): boolean {
  return !filter || (!filter.servers?.size && !filter.tools?.size && !filter.statuses?.size && !filter.search?.trim());
}

/** A predicate for call records; build once per filter, apply to many records. */
export function callMatcher(filter: WaterfallFilter | undefined): (record: CallRecord) => boolean {
  if (!filter || isFilterEmpty(filter)) return () => true;
  const { servers, tools, statuses } = filter;
  const needle = filter.search?.trim().toLowerCase() ?? "";
  return (record) =>
    (!servers?.size || servers.has(serverOf(record))) &&
    (!tools?.size || tools.has(toolLabel(record))) &&
    (!statuses?.size || statuses.has(displayStatus(record))) &&
    (needle === "" || searchText(record).includes(needle));
}

/** A value and how many calls have it. */
export interface Facet<T extends string = string> {
  value: T;
  count: number;
}

/** The servers, tools and statuses present, with counts, for the filter menus. */
export interface Facets {
  servers: Facet[];
  tools: Facet[];
  statuses: Facet<DisplayStatus>[];
}

/** Counts servers, tools and statuses over the records (servers and tools sorted by name). */
export function facetsOf(records: readonly CallRecord[]): Facets {
  const servers = new Map<string, number>();
  const tools = new Map<string, number>();
  const statuses = new Map<DisplayStatus, number>();
  for (const record of records) {
    bump(servers, serverOf(record));
    bump(tools, toolLabel(record));
    bump(statuses, displayStatus(record));
  }
  const sorted = (map: Map<string, number>) => [...map].sort(([a], [b]) => a.localeCompare(b)).map(([value, count]) => ({ value, count }));
  return {
    servers: sorted(servers),
    tools: sorted(tools),
    statuses: DISPLAY_STATUSES.filter((s) => statuses.has(s)).map((value) => ({ value, count: statuses.get(value) ?? 0 })),
  };
}

function bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
