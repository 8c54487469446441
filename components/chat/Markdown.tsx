"use client";

import { lazy, Suspense } from "react";
import styles from "./Markdown.module.css";

// react-markdown and its parser (about 40 modules) load when a first message shows rather than
// with the page (docs/speed.md, "The page's start"); until then the text shows as it came.
const MarkdownView = lazy(() => import("./MarkdownView").then((m) => ({ default: m.MarkdownView })));

/** Renders model markdown safely (./MarkdownView.tsx); the plain text for the moment it loads. */
export function Markdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className={`${styles.markdown} ${styles.plain}`}>{text}</div>}>
      <MarkdownView text={text} />
    </Suspense>
  );
}
