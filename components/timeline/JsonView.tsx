"use client";

import { createContext, useContext, useDeferredValue, useMemo, useState, type ReactNode } from "react";
import { childPath, searchJson, type JsonSearch } from "@/lib/text/json-search";
import styles from "./JsonView.module.css";
import { useCopy } from "@/components/hooks/use-copy";
import { mediaOf } from "@/lib/mcp/result-display";

/** Items and characters shown before "show all"; a 2 MB result must not become 2 MB of DOM by default. */
const ITEMS_SHOWN = 50;
const CHARS_SHOWN = 400;
/** Levels open at first; deeper ones open on click (and only then render their children). */
const OPEN_DEPTH = 2;

/**
 * A collapsible JSON tree. Everything is rendered as text (React escapes it): tool results are
 * server-sent and never HTML. Closed nodes render no children, long arrays, objects and
 * strings are cut with a "show all" button.
 */
export function JsonView({
  value,
  label,
  openDepth = OPEN_DEPTH,
  searchable = false,
  copyable = false,
}: {
  value: unknown;
  label?: string;
  openDepth?: number;
  /** A search box over keys and values. */
  searchable?: boolean;
  /** A Copy button (the value as pretty JSON). */
  copyable?: boolean;
}) {
  const [query, setQuery] = useState("");
  const { copied, copy } = useCopy<"value">();
  const deferred = useDeferredValue(query);
  const found = useMemo(() => searchJson(value, deferred), [value, deferred]);
  const tree = (
    <div className={styles.tree} role="tree" aria-label={label ?? "JSON value"}>
      <OpenDepth value={openDepth}>
        <SearchContext value={found}>
          <JsonNode value={value} depth={0} path="" />
        </SearchContext>
      </OpenDepth>
    </div>
  );
  if (!searchable && !copyable) return tree;
  return (
    <div className={styles.searchable}>
      <div className={styles.searchBar}>
        {searchable && (
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search keys and values"
            aria-label={`Search ${label ?? "the value"}`}
          />
        )}
        {copyable && (
          <button
            type="button"
            onClick={() => copy("value", JSON.stringify(value, null, 2) ?? "undefined")}
            aria-label={`Copy ${label ?? "the value"}`}
            title="Copies it as JSON"
          >
            {copied ? "Copied" : "Copy"}
          </button>
        )}
        {deferred.trim() !== "" && (
          <span className="muted" role="status">
            {found.hits.size === 0 ? "no match" : `${found.hits.size}${found.partial ? "+" : ""} ${found.hits.size === 1 ? "match" : "matches"}`}
          </span>
        )}
      </div>
      {tree}
    </div>
  );
}

/** What the search found: hits are marked, the branches above them open. */
const SearchContext = createContext<JsonSearch>(searchJson(null, ""));

const OpenDepthContext = createContext(OPEN_DEPTH);
function OpenDepth({ value, children }: { value: number; children: ReactNode }) {
  return <OpenDepthContext value={value}>{children}</OpenDepthContext>;
}

function Media({ media }: { media: NonNullable<ReturnType<typeof mediaOf>> }) {
  return media.kind === "image" ? (
    // eslint-disable-next-line @next/next/no-img-element -- a data URL from a tool result, not an asset next/image could optimise
    <img className={styles.media} src={media.src} alt={`Image content (${media.mimeType})`} />
  ) : (
    <audio className={styles.media} controls src={media.src} aria-label={`Audio content (${media.mimeType})`} />
  );
}

function JsonNode({ value, depth, name, path }: { value: unknown; depth: number; name?: string; path: string }) {
  const hit = useContext(SearchContext).hits.has(path);
  const key = name === undefined ? null : <span className={`${styles.key} ${hit ? styles.hit : ""}`}>{JSON.stringify(name)}: </span>;
  if (value === null || typeof value !== "object") {
    return (
      <div className={`${styles.leaf} ${hit ? styles.hit : ""}`} role="treeitem" aria-selected={false}>
        {key}
        <Scalar value={value} />
      </div>
    );
  }
  return <Branch value={value} depth={depth} keyLabel={key} path={path} />;
}

function Branch({ value, depth, keyLabel, path }: { value: object; depth: number; keyLabel: ReactNode; path: string }) {
  const openDepth = useContext(OpenDepthContext);
  const search = useContext(SearchContext);
  const media = mediaOf(value);
  // Media shows itself; its base64 stays folded away.
  const [opened, setOpen] = useState(depth < openDepth && !media);
  const [shownAll, setAll] = useState(false);
  // A branch that holds a search hit opens, with all its items, while the search lasts.
  const found = search.open.has(path);
  const open = opened || found;
  const all = shownAll || found;
  const isArray = Array.isArray(value);
  const entries: Array<[string, unknown]> = isArray ? value.map((item, i) => [String(i), item]) : Object.entries(value);
  const [openBracket, closeBracket] = isArray ? ["[", "]"] : ["{", "}"];
  const shown = all ? entries : entries.slice(0, ITEMS_SHOWN);
  const summary = isArray ? `${entries.length} item${entries.length === 1 ? "" : "s"}` : `${entries.length} key${entries.length === 1 ? "" : "s"}`;
  if (entries.length === 0) {
    return (
      <div className={styles.leaf} role="treeitem" aria-selected={false}>
        {keyLabel}
        <span className={styles.punct}>{`${openBracket}${closeBracket}`}</span>
      </div>
    );
  }
  return (
    <div role="treeitem" aria-expanded={open} aria-selected={false}>
      <button type="button" className={styles.toggle} onClick={() => setOpen(!open)} aria-label={open ? "Collapse" : "Expand"}>
        {open ? "▾" : "▸"}
      </button>
      {keyLabel}
      {media && <Media media={media} />}
      <span className={styles.punct}>{openBracket}</span>
      {!open && (
        <>
          <span className={styles.summary}> {summary} </span>
          <span className={styles.punct}>{closeBracket}</span>
        </>
      )}
      {open && (
        <>
          <div className={styles.children} role="group">
            {shown.map(([name, item]) => (
              <JsonNode key={name} value={item} depth={depth + 1} path={childPath(path, name)} {...(isArray ? {} : { name })} />
            ))}
            {shown.length < entries.length && (
              <button type="button" className={styles.more} onClick={() => setAll(true)}>
                show all {entries.length} ({entries.length - shown.length} more)
              </button>
            )}
          </div>
          <span className={styles.punct}>{closeBracket}</span>
        </>
      )}
    </div>
  );
}

function Scalar({ value }: { value: unknown }) {
  const [all, setAll] = useState(false);
  if (typeof value === "string") {
    const cut = !all && value.length > CHARS_SHOWN;
    return (
      <>
        <span className={styles.string}>{JSON.stringify(cut ? value.slice(0, CHARS_SHOWN) : value)}</span>
        {cut && (
          <button type="button" className={styles.more} onClick={() => setAll(true)}>
            … show all {value.length} characters
          </button>
        )}
      </>
    );
  }
  if (typeof value === "number") return <span className={styles.number}>{Number.isFinite(value) ? String(value) : "null"}</span>;
  if (typeof value === "boolean") return <span className={styles.boolean}>{String(value)}</span>;
  if (value === null) return <span className={styles.null}>null</span>;
  // Left: undefined, and what JSON cannot hold (a BigInt in a hand-built record).
  return <span className={styles.null}>{typeof value === "bigint" ? `${value}n` : "undefined"}</span>;
}
