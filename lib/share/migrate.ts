/**
 * Migrations between share format versions, so a link made by an older app still opens.
 * `SHARE_MIGRATIONS[n]` turns a version-n payload into a version-(n+1) payload; decoding runs the
 * chain up to SHARE_VERSION and only then validates against the current schema. A migration sees
 * untrusted data: it must check shapes itself and never assume the old schema held.
 *
 * Version 1 is the first format, so the chain is empty. To change the format: bump
 * SHARE_VERSION, add `SHARE_MIGRATIONS[old]`, and keep tests/unit/share/fixtures/v<old>-link.txt
 * opening (the golden test reads every fixture).
 */
import { SHARE_VERSION } from "./schema";
import type { ShareDecodeError } from "./errors";
import { messageOf } from "../text/error-message";

/** Upgrades one version's payload to the next; may add a note for the person. */
export type ShareMigration = (payload: Record<string, unknown>) => { payload: Record<string, unknown>; note?: string };

/** The migration chain, keyed by the version each one upgrades from. */
export const SHARE_MIGRATIONS: Readonly<Record<number, ShareMigration>> = Object.freeze({});

/** Outcome of migrating: the payload at the target version and notes, or a version error. */
export type MigrateResult = { ok: true; payload: Record<string, unknown>; notes: string[] } | { ok: false; error: ShareDecodeError };

/** Options for tests: another chain or target version. */
export interface MigrateOptions {
  migrations?: Readonly<Record<number, ShareMigration>>;
  target?: number;
}

/** Runs the migration chain from `from` up to the target version (SHARE_VERSION by default). */
export function migrateShare(payload: Record<string, unknown>, from: number, options: MigrateOptions = {}): MigrateResult {
  const migrations = options.migrations ?? SHARE_MIGRATIONS;
  const target = options.target ?? SHARE_VERSION;
  if (from > target) {
    const message = `This share was made by a newer version of Code Mode Playground (format v${from}); this one reads up to v${target}. Open it where it was made, or update this app.`;
    return { ok: false, error: { code: "version", message } };
  }
  const notes: string[] = [];
  let current = payload;
  for (let version = from; version < target; version++) {
    const migration = Object.hasOwn(migrations, version) ? migrations[version] : undefined;
    if (!migration) {
      return { ok: false, error: { code: "version", message: `This share uses format v${from}, which this version of the app can no longer read.` } };
    }
    try {
      const step = migration(current);
      current = { ...step.payload, version: version + 1 };
      if (step.note) notes.push(step.note);
    } catch (error) {
      const reason = messageOf(error);
      return { ok: false, error: { code: "invalid", message: `This share (format v${from}) could not be upgraded: ${reason}` } };
    }
  }
  if (from < target) notes.push(`Made with an older version of the app (format v${from}); upgraded to v${target}.`);
  // A payload may omit its version (a link's prefix carries it); the result always states it.
  return { ok: true, payload: { ...current, version: target }, notes };
}
