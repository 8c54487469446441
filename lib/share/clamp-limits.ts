/**
 * Upper bounds on sandbox limits that arrive in a share. The schema only checks that limits are
 * positive numbers; a hostile link could otherwise ask the recipient's sandbox for 100 GB and a
 * day of wall clock, which the person would only notice after clicking Run. Pure.
 */
import type { SandboxLimits } from "../sandbox/types";
import type { ShareLimits } from "./schema";

const MB = 1024 * 1024;
const MINUTE = 60_000;

/** The most a shared link may set each limit to. */
export const MAX_SHARED_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  memoryBytes: 1024 * MB,
  stackBytes: 8 * MB,
  cpuMs: 10 * MINUTE,
  wallMs: 30 * MINUTE,
  callTimeoutMs: 10 * MINUTE,
  maxConcurrency: 100,
  maxCalls: 100_000,
  resultBytes: 64 * MB,
  logBytes: 16 * MB,
});

/** Limits lowered to MAX_SHARED_LIMITS, and a note per lowered limit. */
export function clampSharedLimits(limits: ShareLimits): { limits: ShareLimits; notes: string[] } {
  const out: ShareLimits = {};
  const notes: string[] = [];
  for (const key of Object.keys(MAX_SHARED_LIMITS) as (keyof SandboxLimits)[]) {
    const value = limits[key];
    if (value === undefined) continue;
    const max = MAX_SHARED_LIMITS[key];
    if (value > max) notes.push(`The link asked for ${key} = ${value}; lowered to ${max}.`);
    out[key] = Math.min(value, max);
  }
  return { limits: out, notes };
}
