"use client";

import { useRef, useState } from "react";
import { DEFAULT_LIMITS } from "@/lib/sandbox/limits";
import { checkLimits, EDITABLE_LIMITS, type LimitOverrides } from "@/lib/editor/limits-store";
import type { UseRunLimitsResult } from "@/components/hooks/use-run-limits";
import styles from "./Editor.module.css";

/** Per-run sandbox limits, edited in the units people think in; invalid values are refused with the sandbox's message. */
export function LimitsControl({ limits }: { limits: UseRunLimitsResult }) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const changed = Object.keys(limits.overrides).length;

  const update = (key: keyof LimitOverrides, text: string, scale: number) => {
    const next: LimitOverrides = { ...limits.overrides };
    if (text.trim() === "") delete next[key];
    else next[key] = Math.round(Number(text) * scale);
    const check = checkLimits(next);
    if (!check.ok) return setError(check.message);
    setError(undefined);
    limits.set(next);
  };

  return (
    <div
      className={styles.limitsControl}
      onKeyDown={(event) => {
        // Escape closes the popover and gives focus back to its button, like a menu.
        if (event.key === "Escape" && open) {
          event.stopPropagation();
          setOpen(false);
          toggle.current?.focus();
        }
      }}
    >
      <button ref={toggle} type="button" aria-expanded={open} onClick={() => setOpen(!open)} title="Sandbox limits for runs">
        Limits{changed > 0 ? ` (${changed} changed)` : ""}
      </button>
      {open && (
        <form className={styles.limitsForm} aria-label="Run limits" onSubmit={(e) => e.preventDefault()}>
          {EDITABLE_LIMITS.map(({ key, label, unit, scale }) => {
            const value = limits.overrides[key];
            return (
              <label key={key} className="field">
                <span>
                  {label}
                  {unit ? ` (${unit})` : ""}
                </span>
                <input
                  type="number"
                  min={0}
                  step="any"
                  defaultValue={value === undefined ? "" : String(value / scale)}
                  placeholder={String(DEFAULT_LIMITS[key] / scale)}
                  onBlur={(e) => update(key, e.target.value, scale)}
                  aria-label={label}
                />
              </label>
            );
          })}
          {error && (
            <span className="field-error" role="alert">
              {error}
            </span>
          )}
          <div className="toolbar">
            <button
              type="button"
              onClick={() => {
                limits.reset();
                setOpen(false);
              }}
            >
              Reset to defaults
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Done
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
