"use client";

import { useRef, useState } from "react";
import { useShare } from "@/components/hooks/use-share";
import type { UseShareResult } from "@/components/hooks/use-share";
import type { ShareInputs } from "@/lib/share/build";
import { SHARE_CAPS } from "@/lib/share/caps";
import { SHARE_FILE_NAME } from "@/lib/share/file-format";
import type { PreparedShare } from "@/lib/share/prepare";
import { Modal } from "@/components/ui/Modal";
import { defaultSharedRuns, runInView } from "@/lib/share/run-choice";
import type { HistoryEntry, RunSource } from "@/lib/timeline/history";
import { plural } from "@/lib/text/display";
import type { Skill } from "@/lib/skills/skill";

/** The newest runs the dialog offers to share. */
const MAX_OFFERED_RUNS = 20;
import styles from "./ShareDialog.module.css";

/** Props of the Share dialog. */
export interface ShareDialogProps {
  /** The playground's live pieces but its runs and skills; read once, when the dialog opens. */
  inputs: Omit<ShareInputs, "runs" | "skills">;
  /** The person's skills: none goes unless ticked. */
  skills?: readonly Skill[];
  /** The session's recorded runs (newest first): the person picks which the share carries. */
  runs: readonly HistoryEntry[];
  onClose: () => void;
  /** Opens an exported share file (the opened-link banner then shows it). */
  onOpenFile?: (file: Blob) => void;
}

/** The set with `id` added, or removed when it was in it. */
function toggled(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

function kb(chars: number): string {
  return `${(chars / 1024).toFixed(1)} KB`;
}

function dataUrl(text: string): string {
  return `data:application/json;charset=utf-8,${encodeURIComponent(text)}`;
}

/** Share this playground: a link (or a short link when too large), a file, mcp.json and the code. */
const SOURCE_LABEL: Record<RunSource, string> = {
  chat: "this conversation",
  editor: "the editor",
  compare: "a comparison",
  eval: "an eval",
  agent: "an agent (code-mode MCP server)",
  app: "an MCP App",
};

export function ShareDialog({ inputs, runs, skills = [], onClose, onOpenFile }: ShareDialogProps) {
  const [sharedSkills, setSharedSkills] = useState<ReadonlySet<string>>(() => new Set());
  const chosenSkills = skills.filter((s) => sharedSkills.has(s.name));
  const toggleSkill = (name: string) => setSharedSkills((current) => toggled(current, name));
  const ref = useRef<HTMLDialogElement>(null);
  // Read once, as the rest of the share: the runs offered are those of the moment the dialog opened.
  const [offered] = useState(() => runs.slice(0, MAX_OFFERED_RUNS));
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(defaultSharedRuns(offered.map((e) => ({ id: e.record.id, source: e.source })))));
  const inView = runInView(offered.map((e) => ({ id: e.record.id, source: e.source })));
  const records = offered.filter((e) => chosen.has(e.record.id)).map((e) => e.record);
  const toggle = (id: string) => setChosen((current) => toggled(current, id));

  return (
    <Modal title="Share this playground" onClose={onClose} dialogRef={ref}>
      {offered.length > 0 && (
        <fieldset className={styles.section}>
          <legend>Recorded runs it carries</legend>
          <p className="muted small">
            By default the runs of this conversation and the run in view; eval runs and agents&apos; runs only if you tick them. A recipient can replay each one
            offline, its arguments and results included.
          </p>
          <ul className={styles.runs} aria-label="Runs to share">
            {offered.map((entry) => (
              <li key={entry.record.id}>
                <label className="check">
                  <input type="checkbox" checked={chosen.has(entry.record.id)} onChange={() => toggle(entry.record.id)} />
                  {entry.summary.title ?? entry.record.id} · from {SOURCE_LABEL[entry.source]}
                  {entry.record.id === inView ? " (in view)" : ""} · {entry.summary.status} · {plural(entry.summary.callCount, "call")}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      {skills.length > 0 && (
        <fieldset className={styles.section}>
          <legend>Skills it carries</legend>
          <p className="muted small">
            None unless you tick it. A skill goes with its code, schemas and tests (secret-looking values removed); the recipient reviews it before it can run.
          </p>
          <ul className={styles.runs} aria-label="Skills to share">
            {skills.map((skill) => (
              <li key={skill.name}>
                <label className="check">
                  <input type="checkbox" checked={sharedSkills.has(skill.name)} onChange={() => toggleSkill(skill.name)} />
                  skills.{skill.name} · {plural(skill.tests.length, "test")}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      <Sharing
        key={`${records.map((r) => r.id).join(",")}|${chosenSkills.map((s) => s.name).join(",")}`}
        inputs={{ ...inputs, runs: records, skills: chosenSkills }}
      />
      {onOpenFile && (
        <section className={styles.section}>
          <h3>Open</h3>
          <div className="toolbar">
            <label className="file-button">
              Open a share file…
              <input
                type="file"
                accept="application/json,.json"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  if (file) {
                    onOpenFile(file);
                    ref.current?.close();
                  }
                }}
              />
            </label>
          </div>
        </section>
      )}
      <div className="toolbar">
        <span className="spacer" />
        <button type="button" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
    </Modal>
  );
}

/** The share of these inputs: prepared afresh whenever the chosen runs change (a new key). */
function Sharing({ inputs }: { inputs: ShareInputs }) {
  const share = useShare(inputs);
  return (
    <>
      {share.prep.status === "preparing" && <p className="muted">Preparing the share…</p>}
      {share.prep.status === "error" && (
        <div className="error-box" role="alert">
          {share.prep.message}
        </div>
      )}
      {share.prep.status === "ready" && <Prepared share={share} prepared={share.prep.share} link={share.prep.link} />}
    </>
  );
}

function Prepared({ share, prepared, link }: { share: UseShareResult; prepared: PreparedShare; link: string | undefined }) {
  const { shortLink, copied, copy } = share;
  return (
    <>
      <section className={styles.section}>
        <h3>What it holds</h3>
        {prepared.contents.length > 0 ? (
          <ul className={styles.list}>
            {prepared.contents.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : (
          <p className="muted small">Nothing yet: an empty playground.</p>
        )}
        {prepared.omitted.length > 0 && <p className="muted small">Left out: {prepared.omitted.join("; ")}. Secrets never go into a share.</p>}
      </section>
      {prepared.lookalikes.length > 0 && (
        <div className="warn-box" role="alert">
          These look like credentials and would be shared as written: {prepared.lookalikes.join(", ")}. Remove them before sharing.
        </div>
      )}
      <section className={styles.section}>
        <h3>Link</h3>
        {link !== undefined && (
          <div className={styles.linkRow}>
            <input className={styles.linkInput} readOnly value={link} aria-label="Share link" onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="primary" onClick={() => copy("link", link)}>
              {copied === "link" ? "Copied" : "Copy link"}
            </button>
          </div>
        )}
        <span className={styles.size}>
          {kb(prepared.encoded.length)} encoded. {prepared.transport === "link" && "Everything is in the link itself (after #), which never reaches a server."}
          {prepared.transport === "short-link" && `Too large for a link (over ${kb(SHARE_CAPS.linkChars)}): create a short link stored by this app.`}
          {prepared.transport === "too-large" && `Too large to share as a link (over ${kb(SHARE_CAPS.snapshotChars)}): download the file instead.`}
        </span>
        {prepared.transport !== "too-large" && (
          <div className="toolbar">
            {shortLink.status === "saved" ? (
              <>
                <input className={styles.linkInput} readOnly value={shortLink.url} aria-label="Short link" onFocus={(e) => e.currentTarget.select()} />
                <button type="button" className="primary" onClick={() => copy("short-link", shortLink.url)}>
                  {copied === "short-link" ? "Copied" : "Copy short link"}
                </button>
              </>
            ) : (
              <button type="button" onClick={share.createShortLink} disabled={shortLink.status === "saving"}>
                {shortLink.status === "saving" ? "Creating…" : "Create short link"}
              </button>
            )}
            {shortLink.status === "error" && <span className="field-error small">{shortLink.message}</span>}
          </div>
        )}
      </section>
      <section className={styles.section}>
        <h3>Export</h3>
        <div className="toolbar">
          <a className="button" download={SHARE_FILE_NAME} href={dataUrl(prepared.fileText)}>
            Download {SHARE_FILE_NAME}
          </a>
          <button type="button" onClick={() => copy("mcp-json", prepared.mcpJson.text)} disabled={prepared.state.servers.length === 0}>
            {copied === "mcp-json" ? "Copied" : "Copy as mcp.json"}
          </button>
          <button type="button" onClick={() => copy("code", prepared.state.code ?? "")} disabled={prepared.state.code === undefined}>
            {copied === "code" ? "Copied" : "Copy code"}
          </button>
        </div>
      </section>
    </>
  );
}
