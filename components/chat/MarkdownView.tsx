"use client";

import ReactMarkdown, { type Components } from "react-markdown";
import styles from "./Markdown.module.css";

// Model text is untrusted: no raw HTML (skipHtml, and no rehype-raw), react-markdown's default
// URL filter drops javascript: and other unsafe links, and links open without a referrer.
const COMPONENTS: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
  // Images would fetch from wherever the model points; show the link instead.
  img: ({ src, alt }) => (
    <a href={typeof src === "string" ? src : undefined} target="_blank" rel="noreferrer noopener">
      {alt || "image"}
    </a>
  ),
};

/** Renders model markdown safely (see COMPONENTS). Loaded on demand: ./Markdown.tsx. */
export function MarkdownView({ text }: { text: string }) {
  return (
    <div className={styles.markdown}>
      <ReactMarkdown skipHtml components={COMPONENTS}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
