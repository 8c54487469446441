"use client";

import { useMemo, useState, type ChangeEvent, type FormEvent } from "react";
import { buildFormModel, fromArguments, toArguments, ROOT_PATH, type FormValue } from "@/lib/forms";
import { SchemaField } from "@/components/tools/SchemaForm";
import { useSkills } from "@/components/hooks/use-skills";
import { useCatalog } from "@/components/hooks/use-mcp";
import { useStore } from "@/components/hooks/use-store";
import { Badge } from "@/components/ui/Badge";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { downloadText } from "@/components/ui/download";
import { declarationsFor } from "@/lib/codemode";
import { parseSkillsFile, skillsFileText, skillsFromFolder, skillsToFolder, type SkillsRead } from "@/lib/skills/skill-file";
import { SKILLS_NAMESPACE, type Skill } from "@/lib/skills/skill";
import { skillInputProblem } from "@/lib/skills/skill-host";
import type { SkillEntry, SkillsState, SkillTestRun } from "@/lib/playground/skill-store";
import { escapeHidden } from "@/lib/text/hidden-characters";
import { clip } from "@/lib/text/display";
import styles from "./Skills.module.css";
// Skills are tools: their list and details look like the Tools view's.
import toolStyles from "@/components/tools/Tools.module.css";

const NO_SKILLS: SkillsState = { entries: [], tests: {} };

/** The File System Access API's folder picker (Chromium): the types this view uses. */
interface DirectoryHandle {
  getDirectoryHandle(name: string, options: { create: boolean }): Promise<DirectoryHandle>;
  getFileHandle(
    name: string,
    options: { create: boolean },
  ): Promise<{ createWritable(): Promise<{ write(text: string): Promise<void>; close(): Promise<void> }> }>;
}
type PickFolder = (options: { mode: "readwrite" }) => Promise<DirectoryHandle>;

function canPickFolder(): boolean {
  return typeof window !== "undefined" && "showDirectoryPicker" in window;
}

/** Writes the skills as a folder the person picks; resolves with the files written, undefined when they cancelled. */
async function exportFolder(skills: readonly Skill[]): Promise<number | undefined> {
  const pick = (window as unknown as { showDirectoryPicker: PickFolder }).showDirectoryPicker;
  let root: DirectoryHandle;
  try {
    root = await pick({ mode: "readwrite" });
  } catch {
    return undefined;
  }
  const files = skillsToFolder(skills);
  for (const file of files) {
    const parts = file.path.split("/");
    let dir = root;
    for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
    const writable = await (await dir.getFileHandle(parts.at(-1) ?? "file", { create: true })).createWritable();
    await writable.write(file.text);
    await writable.close();
  }
  return files.length;
}

/** Pass / fail of a skill's last test run, as a badge. */
function TestBadge({ run }: { run: SkillTestRun | undefined }) {
  if (!run) return null;
  if (run.state === "running") return <Badge tone="accent">testing…</Badge>;
  if (run.state === "failed") return <Badge tone="error">tests could not run</Badge>;
  const failed = run.results.filter((r) => !r.passed).length;
  return failed === 0 ? <Badge tone="ok">tests pass</Badge> : <Badge tone="error">{failed === 1 ? "1 test fails" : `${failed} tests fail`}</Badge>;
}

/**
 * The Skills tab (docs/agents.md, "Skills"): the person's skills with their declarations,
 * tests, a call form and the code; import (a skills file or folder, held for review) and export.
 */
export function SkillsView() {
  const skills = useSkills();
  const state = useStore(skills.store, undefined, { fallback: NO_SKILLS });
  const selected = useStore(skills.inView, undefined, { fallback: undefined });
  const setSelected = (name: string | undefined) => skills.inView.show(name);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const entry = selected === undefined ? undefined : state.entries.find((e) => e.skill.name === selected);

  const imported = (read: SkillsRead, from: string) => {
    if (!read.ok) return setMessage({ ok: false, text: `${from} was refused:\n${read.errors.join("\n")}` });
    const outcome = skills.store.importSkills(read.skills, from);
    const parts = [
      outcome.added.length > 0 ? `Imported ${outcome.added.join(", ")}: read each one and trust it before it can run.` : "",
      ...outcome.refused,
    ].filter(Boolean);
    setMessage({ ok: outcome.refused.length === 0, text: parts.join("\n") || "Nothing to import." });
  };
  const importFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file)
      file.text().then(
        (text) => imported(parseSkillsFile(text), file.name),
        (error: unknown) => setMessage({ ok: false, text: String(error) }),
      );
  };
  const importFolder = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = "";
    if (files.length === 0) return;
    const folder = files[0]?.webkitRelativePath.split("/")[0] ?? "folder";
    Promise.all(files.map(async (file) => ({ path: file.webkitRelativePath || file.name, text: await file.text() }))).then(
      (read) => imported(skillsFromFolder(read), `the folder ${folder}`),
      (error: unknown) => setMessage({ ok: false, text: String(error) }),
    );
  };

  if (entry) return <SkillDetails entry={entry} run={state.tests[entry.skill.name]} onBack={() => setSelected(undefined)} />;

  return (
    <div className={toolStyles.toolsView}>
      <div className="toolbar">
        <label className="file-button" title="A skills file (skills.json) exported from a playground">
          Import file…
          <input type="file" accept="application/json,.json" onChange={importFile} aria-label="Import a skills file" />
        </label>
        <label className="file-button" title="A folder with one directory per skill (skill.json, code.js, tests/)">
          Import folder…
          <input type="file" onChange={importFolder} aria-label="Import a skills folder" {...{ webkitdirectory: "", directory: "" }} />
        </label>
        <span className="spacer" />
        <button
          type="button"
          disabled={state.entries.length === 0}
          onClick={() => downloadText(skillsFileText(state.entries.map((e) => e.skill)), "skills.json")}
        >
          Export all
        </button>
        {canPickFolder() && (
          <button
            type="button"
            disabled={state.entries.length === 0}
            title="Writes one directory per skill (skill.json, code.js, tests/) into a folder you choose"
            onClick={() =>
              void exportFolder(state.entries.map((e) => e.skill)).then(
                (count) => count !== undefined && setMessage({ ok: true, text: `Wrote ${count} files.` }),
                (error: unknown) => setMessage({ ok: false, text: `The folder was not written: ${String(error)}` }),
              )
            }
          >
            Export folder…
          </button>
        )}
      </div>
      {message && (
        <div className={message.ok ? "ok-box" : "error-box"} role="status">
          {message.text}
        </div>
      )}
      {state.sharedNotice && (
        <div className="error-box" role="status" aria-label="Shared skills">
          {state.sharedNotice}
        </div>
      )}
      {state.loadError && (
        <div className="error-box" role="alert">
          {state.loadError}
        </div>
      )}
      {state.entries.length === 0 ? (
        <div className="empty-state">
          <h3>No skills yet</h3>
          <p>
            A skill is a program that worked, kept as a tool with its own tests. Run a program (give it Inputs in the editor to make them its parameters), then
            choose <b>Save as skill</b> in the editor or on a run in Runs. Programs then call it as <code>{SKILLS_NAMESPACE}.name(input)</code> and the model
            sees it.
          </p>
        </div>
      ) : (
        <ul className={toolStyles.tools} aria-label="Skills">
          {state.entries.map(({ skill, status }) => (
            <li key={skill.name}>
              <button type="button" className={toolStyles.toolRow} onClick={() => setSelected(skill.name)}>
                <span className={toolStyles.toolName}>
                  {SKILLS_NAMESPACE}.{skill.name}
                </span>
                {status === "review" && (
                  <Badge tone="warn" title="Imported: read it and trust it before it can run">
                    review
                  </Badge>
                )}
                {skill.destructive && (
                  <Badge tone="error" title="Some of its calls go to destructive tools">
                    destructive
                  </Badge>
                )}
                <span className="spacer" />
                <TestBadge run={state.tests[skill.name]} />
                <span className="muted">{skill.tests.length === 1 ? "1 test" : `${skill.tests.length} tests`}</span>
              </button>
              <div className={`${toolStyles.toolDesc} muted`}>{skill.description}</div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One skill: review, declaration, call form, tests, code. */
function SkillDetails({ entry, run, onBack }: { entry: SkillEntry; run: SkillTestRun | undefined; onBack: () => void }) {
  const skills = useSkills();
  const { skill, status } = entry;
  const { declarations } = useCatalog();
  const declaration = useMemo(
    () => (declarations ? declarationsFor(declarations, [{ namespace: SKILLS_NAMESPACE, name: skill.name }]) : ""),
    [declarations, skill.name],
  );
  // The same form a tool's test call has, built from the skill's input schema, filled with its first test's input.
  const node = useMemo(() => buildFormModel(skill.inputSchema), [skill.inputSchema]);
  const [value, setValue] = useState<FormValue>(() => fromArguments(node, skill.tests[0]?.input ?? {}));
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const [callProblem, setCallProblem] = useState<string | undefined>(undefined);
  const [code, setCode] = useState(skill.code);
  const trusted = status === "trusted";

  const call = (event: FormEvent) => {
    event.preventDefault();
    const converted = toArguments(node, value);
    if (!converted.ok) return setErrors(new Map(converted.errors.map((e) => [e.path, e.message])));
    setErrors(new Map());
    const input =
      typeof converted.args === "object" && converted.args !== null && !Array.isArray(converted.args) ? (converted.args as Record<string, unknown>) : {};
    const problem = skillInputProblem(skill, input);
    setCallProblem(problem);
    if (!problem) skills.call(skill.name, input);
  };

  return (
    <div className={toolStyles.toolsView} aria-label={`Skill ${skill.name}`}>
      <div className="toolbar">
        <button type="button" onClick={onBack}>
          ← Skills
        </button>
        <span className="spacer" />
        <button type="button" onClick={() => downloadText(skillsFileText([skill]), `${skill.name}.skill.json`)}>
          Export
        </button>
        <ConfirmButton
          label="Delete"
          question={`Delete skills.${skill.name} and its tests?`}
          onConfirm={() => {
            skills.store.remove(skill.name);
            onBack();
          }}
        />
      </div>
      <h3 className={toolStyles.toolTitle}>
        {SKILLS_NAMESPACE}.{skill.name} {skill.destructive && <Badge tone="error">destructive</Badge>}
      </h3>
      <p>{skill.description}</p>
      {!trusted && (
        <div className="warn-box" role="group" aria-label="Review this skill">
          <p className="small">
            Imported from {entry.from ?? "a file"}. It runs nothing until you trust it: read its code below (it runs in the sandbox with your servers, under
            your approvals), then trust it or delete it.
          </p>
          <button type="button" className="primary" onClick={() => skills.store.trust(skill.name)}>
            Trust and enable
          </button>
        </div>
      )}
      {trusted && declaration && <pre className={styles.declaration}>{declaration}</pre>}

      <h4 className={styles.section}>Tests</h4>
      <div className="toolbar">
        <button type="button" className="primary" disabled={!trusted || run?.state === "running"} onClick={() => skills.test(skill.name)}>
          Test skill
        </button>
        <TestBadge run={run} />
        <span className="muted small">Replays each test offline: no server is called.</span>
      </div>
      {run?.state === "failed" && <div className="error-box">{run.message}</div>}
      <ul className={toolStyles.tools} aria-label="Tests">
        {skill.tests.map((test) => {
          const result = run?.state === "done" ? run.results.find((r) => r.name === test.name) : undefined;
          return (
            <li key={test.name} data-passed={result ? String(result.passed) : undefined}>
              <div>
                {result && <Badge tone={result.passed ? "ok" : "error"}>{result.passed ? "pass" : "fail"}</Badge>} <b>{test.name}</b>{" "}
                <span className="muted small">
                  input <code>{clip(JSON.stringify(test.input), 80)}</code> · {test.calls.length} recorded {test.calls.length === 1 ? "call" : "calls"}
                </span>
              </div>
              {result && result.problems.length > 0 && (
                <ul className="error-box small">
                  {result.problems.map((problem) => (
                    <li key={problem.message}>{problem.message}</li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>

      <h4 className={styles.section}>Call</h4>
      <form onSubmit={call} aria-label={`Call ${skill.name}`} className={styles.callForm}>
        <SchemaField node={node} value={value} onChange={setValue} path={ROOT_PATH} label="input" errors={errors} />
        {callProblem && <div className="field-error">{callProblem}</div>}
        <div className="toolbar">
          <button type="submit" disabled={!trusted} title="Runs it against the connected servers; the call and its nested calls show on the timeline">
            Call skill
          </button>
          <button type="button" onClick={() => skills.openInEditor(skill)} title="Puts its code in the editor with its first test's inputs">
            Open in editor
          </button>
        </div>
      </form>

      <h4 className={styles.section}>Code</h4>
      <textarea
        rows={Math.min(18, code.split("\n").length + 1)}
        className={styles.codeBox}
        value={trusted ? code : escapeHidden(code)}
        readOnly={!trusted}
        onChange={(e) => setCode(e.target.value)}
        spellCheck={false}
        wrap="off"
        aria-label="Skill code"
      />
      {trusted && (
        <div className="toolbar">
          <button type="button" disabled={code === skill.code || code.trim() === ""} onClick={() => skills.store.setCode(skill.name, code)}>
            Save code
          </button>
          <span className="muted small">Its tests stay: run them to see what the change does.</span>
        </div>
      )}
    </div>
  );
}
