"use client";

import { useStore } from "@/components/hooks/use-store";
import { usePage } from "@/components/playground/page-context";
import { SAMPLE_CODE } from "@/lib/editor/sample-code";
import type { EditorSnapshot } from "@/lib/playground/editor-state";

/**
 * The editor's code (lib/playground/editor-state.ts). The server renders the sample (its code
 * preview shows while Monaco loads); the stored code takes over right after hydration (the
 * store's server value is the sample), so a reload with code of one's own never renders a mismatch.
 */
export function useEditorCode(): string {
  return useStore(usePage().playground.editor, codeOf, { fallback: SAMPLE_CODE });
}

/** The whole editor state: code, history and the program waiting in step mode. */
export function useEditorState(): EditorSnapshot {
  return useStore(usePage().playground.editor, undefined, { fallback: EMPTY });
}

const codeOf = (state: EditorSnapshot) => state.code;
const EMPTY: EditorSnapshot = { code: SAMPLE_CODE, data: "", history: [], pending: undefined };
