"use client";

import { useEffect, useRef } from "react";
import Editor, { type OnMount } from "@monaco-editor/react";
import { monaco } from "./monaco-setup";
import styles from "./Editor.module.css";

/** An error location to mark in the editor (1-based line and column). */
export interface EditorMarker {
  line: number;
  column?: number;
  message: string;
}

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd+Enter: gets the editor's text as it is at that moment (the page's copy may be a render behind). */
  onRun: (code: string) => void;
  marker: EditorMarker | undefined;
  /** TypeScript declarations of the connected servers' tools: completion, hover docs and type errors. */
  declarations: string;
  /** Filled in once Monaco has mounted: what the page may ask of the editor. */
  handleRef?: { current: EditorHandle | null } | undefined;
  /** What to do once mounted: reveal the line asked for before, or take the focus the code had. */
  onMounted?: { line?: number; focus: boolean };
}

/** Commands the page gives the editor (the timeline's call → code links). */
export interface EditorHandle {
  /** Scrolls a 1-based line to the middle, selects it and focuses the editor. */
  revealLine: (line: number) => void;
}

const MARKER_OWNER = "sandbox";

/** Monaco, loaded from our own bundle, in TypeScript mode; Ctrl/Cmd+Enter runs. */
export function CodeEditor({ value, onChange, onRun, marker, declarations, handleRef, onMounted }: CodeEditorProps) {
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const onRunRef = useRef(onRun);
  useEffect(() => {
    onRunRef.current = onRun;
  }, [onRun]);

  const handleMount: OnMount = (editor) => {
    editorRef.current = editor;
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => onRunRef.current(editor.getValue()));
    if (handleRef) handleRef.current = { revealLine: (line) => revealLine(editor, line) };
    if (onMounted?.line !== undefined) revealLine(editor, onMounted.line);
    else if (onMounted?.focus) editor.focus();
  };

  // Re-registered whenever the server set changes; the previous lib is disposed first.
  useEffect(() => {
    const lib = monaco.typescript.typescriptDefaults.addExtraLib(declarations, "file:///mcp-tools.d.ts");
    return () => lib.dispose();
  }, [declarations]);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    if (!marker) {
      monaco.editor.setModelMarkers(model, MARKER_OWNER, []);
      return;
    }
    const line = Math.min(Math.max(1, marker.line), model.getLineCount());
    const column = Math.max(1, marker.column ?? model.getLineFirstNonWhitespaceColumn(line));
    monaco.editor.setModelMarkers(model, MARKER_OWNER, [
      {
        severity: monaco.MarkerSeverity.Error,
        message: marker.message,
        startLineNumber: line,
        startColumn: column,
        endLineNumber: line,
        endColumn: model.getLineMaxColumn(line),
      },
    ]);
    editorRef.current?.revealLineInCenterIfOutsideViewport(line);
  }, [marker, value]);

  return (
    <Editor
      className={styles.editorHost}
      language="typescript"
      path="file:///orchestration.ts"
      theme="vs-dark"
      value={value}
      onChange={(next) => onChange(next ?? "")}
      onMount={handleMount}
      loading={<div className={styles.editorLoading}>Loading editor…</div>}
      options={{
        minimap: { enabled: false },
        fontSize: 13,
        scrollBeyondLastLine: false,
        automaticLayout: true,
        tabSize: 2,
        ariaLabel: "Code editor",
      }}
    />
  );
}

function revealLine(editor: monaco.editor.IStandaloneCodeEditor, line: number): void {
  editor.revealLineInCenter(line);
  editor.setSelection({ startLineNumber: line, startColumn: 1, endLineNumber: line, endColumn: editor.getModel()?.getLineMaxColumn(line) ?? 1 });
  editor.focus();
}
