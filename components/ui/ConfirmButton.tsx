"use client";

import { useEffect, useRef, useState } from "react";

export interface ConfirmButtonProps {
  /** The button's text ("Remove", "Clear"). */
  label: string;
  /** What will happen, as a question ("Remove the server lab?"). */
  question: string;
  /** The confirming button's text; defaults to `label`. */
  confirmLabel?: string;
  onConfirm: () => void;
  disabled?: boolean;
  title?: string;
}

/**
 * A button for something that cannot be undone: the first click asks inline (the question, the
 * action again and Cancel; Escape cancels), so the person confirms where they clicked, without
 * the browser's native dialog. The one confirmation of the app.
 */
export function ConfirmButton({ label, question, confirmLabel, onConfirm, disabled, title }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirm.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)} disabled={disabled} title={title}>
        {label}
      </button>
    );
  }
  return (
    <span
      role="group"
      aria-label={question}
      className="confirm-inline"
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          setAsking(false);
        }
      }}
    >
      <span>{question}</span>
      <button
        ref={confirm}
        type="button"
        className="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel ?? label}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
