"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import styles from "./JsonView.module.css";
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
export function JsonView({ value, label, openDepth = OPEN_DEPTH }: { value: unknown; label?: string; openDepth?: number }) {
  return (
    <div className={styles.tree} role="tree" aria-label={label ?? "JSON value"}>
      <OpenDepth value={openDepth}>
        <JsonNode value={value} depth={0} />
      </OpenDepth>
    </div>
  );
}

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

function JsonNode({ value, depth, name }: { value: unknown; depth: number; name?: string }) {
  const key = name === undefined ? null : <span className={styles.key}>{JSON.stringify(name)}: </span>;
  if (value === null || typeof value !== "object") {
    return (
      <div className={styles.leaf} role="treeitem" aria-selected={false}>
        {key}
        <Scalar value={value} />
      </div>
    );
  }
  return <Branch value={value} depth={depth} keyLabel={key} />;
}

function Branch({ value, depth, keyLabel }: { value: object; depth: number; keyLabel: ReactNode }) {
  const openDepth = useContext(OpenDepthContext);
  const media = mediaOf(value);
  // Media shows itself; its base64 stays folded away.
  const [open, setOpen] = useState(depth < openDepth && !media);
  const [all, setAll] = useState(false);
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
              <JsonNode key={name} value={item} depth={depth + 1} {...(isArray ? {} : { name })} />
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
