import type { ComponentPropsWithoutRef } from "react";
import styles from "./Badge.module.css";

/** What a badge says about its subject: its colour, from the design tokens in app/globals.css. */
export type BadgeTone = "neutral" | "accent" | "ok" | "warn" | "error" | "waiting";

export interface BadgeProps extends ComponentPropsWithoutRef<"span"> {
  tone?: BadgeTone;
  /** Monospace text (identifiers, model ids). */
  mono?: boolean;
}

/** The one small rounded label: server and run states, tool annotations, call status, the model in use. */
export function Badge({ tone = "neutral", mono = false, className, ...rest }: BadgeProps) {
  const classes = [styles.badge, styles[tone], mono ? styles.mono : undefined, className].filter(Boolean).join(" ");
  return <span {...rest} className={classes} />;
}

/** Tone for a state word used across the app (server, run and call states). */
export function toneOf(state: string): BadgeTone {
  switch (state) {
    case "ok":
    case "connected":
    case "ready":
      return "ok";
    case "error":
    case "failed":
      return "error";
    case "warning":
    case "connecting":
    case "restarting":
      return "warn";
    case "running":
    case "unfinished":
      return "accent";
    case "waiting":
      return "waiting";
    default:
      return "neutral";
  }
}
