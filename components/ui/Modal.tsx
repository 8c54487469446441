"use client";

import { useEffect, useRef, type ReactNode, type RefObject } from "react";
import styles from "./Modal.module.css";

export interface ModalProps {
  /** The accessible name (and the visible title). */
  title: string;
  /** Wider dialogs (compare tables) ask for more room. */
  width?: "normal" | "wide";
  onClose: () => void;
  /** Filled with the <dialog>, so buttons inside can close it (`ref.current?.close()`). */
  dialogRef?: RefObject<HTMLDialogElement | null>;
  children: ReactNode;
}

/** The one modal dialog: a native <dialog> shown with showModal (focus trapped, Escape closes), a title and a body. */
export function Modal({ title, width = "normal", onClose, dialogRef, children }: ModalProps) {
  const own = useRef<HTMLDialogElement>(null);
  const ref = dialogRef ?? own;
  useEffect(() => {
    // No close() on cleanup: its "close" event would reach onClose after Strict Mode's rehearsal
    // unmount and shut the dialog at once; removing the element ends the modal state anyway.
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, [ref]);
  return (
    <dialog ref={ref} className={`${styles.dialog} ${width === "wide" ? styles.wide : ""}`} aria-label={title} onClose={onClose}>
      <div className={styles.body}>
        <h2 className={styles.title}>{title}</h2>
        {children}
      </div>
    </dialog>
  );
}

/**
 * A dialog's answer buttons, kept in view: when the dialog's content is taller than the window,
 * the dialog scrolls and these stay stuck to its bottom edge, so a person can always answer
 * without scrolling inside it (1280×720 included).
 */
export function ModalActions({ children }: { children: ReactNode }) {
  return <div className={`toolbar ${styles.actions}`}>{children}</div>;
}
