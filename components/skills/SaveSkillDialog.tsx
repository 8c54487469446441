"use client";

import { useState } from "react";
import { Modal, ModalActions } from "@/components/ui/Modal";
import { useSkills } from "@/components/hooks/use-skills";
import { useCatalog } from "@/components/hooks/use-mcp";
import { draftFromRun, skillFromForm } from "@/lib/skills/skill-draft";
import { recordStart, type RunRecord } from "@/lib/timeline/run-record";
import { clip } from "@/lib/text/display";
import styles from "./Skills.module.css";

/**
 * Save a run as a skill (docs/agents.md, "Skills"): a name, a description and the schemas
 * proposed from the run (editable); the run becomes the skill's first test. A run of a kept
 * skill's own code can instead be added to it as another test.
 */
export function SaveSkillDialog({ record, onClose }: { record: RunRecord; onClose: () => void }) {
  const skills = useSkills();
  const catalog = useCatalog();
  const testName = `run at ${new Date(record.startedAt).toLocaleTimeString()}`;
  // Drafted once, from the servers connected when the dialog opened (it is keyed by the run).
  const [drafted] = useState(() => draftFromRun(record, catalog.servers, testName));
  // A run of a kept skill's own code (opened from the Skills tab) is most likely another test of it.
  const [name, setName] = useState(() =>
    drafted.ok ? (skills.store.snapshot().entries.find((e) => e.skill.code === drafted.draft.code)?.skill.name ?? "") : "",
  );
  const [description, setDescription] = useState("");
  const [inputSchemaText, setInputSchemaText] = useState(drafted.ok ? drafted.draft.inputSchemaText : "");
  const [outputSchemaText, setOutputSchemaText] = useState(drafted.ok ? drafted.draft.outputSchemaText : "");
  const [problems, setProblems] = useState<readonly string[]>([]);
  const [saved, setSaved] = useState<string | undefined>(undefined);

  if (!drafted.ok) {
    return (
      <Modal title="Save as skill" onClose={onClose}>
        <div className="error-box" role="alert">
          {drafted.message}
        </div>
        <ModalActions>
          <span className="spacer" />
          <button type="button" onClick={onClose}>
            Close
          </button>
        </ModalActions>
      </Modal>
    );
  }
  const { draft } = drafted;
  const existing = skills.store.get(name.trim());
  const sameCode = existing?.skill.code === draft.code;
  const data = recordStart(record)?.data ?? {};
  const inputs = Object.keys(data);

  const save = () => {
    const made = skillFromForm({ name, description, inputSchemaText, outputSchemaText }, draft);
    if (!made.ok) return setProblems(made.problems);
    setProblems([]);
    skills.store.save(made.skill);
    setSaved(made.skill.name);
  };
  const addTest = () => {
    if (!existing) return;
    skills.store.addTest(existing.skill.name, draft.test);
    setSaved(existing.skill.name);
  };

  if (saved !== undefined) {
    return (
      <Modal title="Save as skill" onClose={onClose}>
        <div className="ok-box" role="status">
          Saved <code>skills.{saved}</code>. Programs can call it, the model sees it in both modes, and its tests run from the Skills tab.
        </div>
        <ModalActions>
          <span className="spacer" />
          <button type="button" className="primary" onClick={onClose} autoFocus>
            Done
          </button>
        </ModalActions>
      </Modal>
    );
  }

  return (
    <Modal title="Save as skill" onClose={onClose}>
      <p className="muted small">
        A skill is this program kept as a tool: <code>skills.{name.trim() || "name"}(input)</code>. Its inputs are the run&apos;s Inputs (the editor&apos;s data
        globals); the run becomes its first test, replayed offline.
      </p>
      <label className="field">
        <span>Name</span>
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="cheapest_carrier" spellCheck={false} aria-label="Skill name" autoFocus />
      </label>
      <label className="field">
        <span>Description</span>
        <textarea
          rows={2}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          placeholder="What it does and returns: the model chooses skills by this."
          aria-label="Skill description"
        />
      </label>
      <label className="field">
        <span>
          Input schema{" "}
          <span className="muted small">
            {inputs.length > 0
              ? `proposed from this run's inputs (${inputs.join(", ")}): add enums, descriptions, optional keys`
              : "this run had no inputs: add some in the editor's Inputs and run again to give the skill parameters"}
          </span>
        </span>
        <textarea
          rows={6}
          className={styles.codeBox}
          value={inputSchemaText}
          onChange={(e) => setInputSchemaText(e.target.value)}
          spellCheck={false}
          aria-label="Input schema"
        />
      </label>
      <label className="field">
        <span>
          Output schema <span className="muted small">proposed from the value it returned; leave empty for none</span>
        </span>
        <textarea
          rows={5}
          className={styles.codeBox}
          value={outputSchemaText}
          onChange={(e) => setOutputSchemaText(e.target.value)}
          spellCheck={false}
          aria-label="Output schema"
        />
      </label>
      <p className="small">
        <b>Test:</b> {testName}: {draft.test.calls.length} {draft.test.calls.length === 1 ? "call" : "calls"}, returned{" "}
        <code>{clip(JSON.stringify(draft.test.expected.ok ? (draft.test.expected.value ?? null) : null), 100)}</code>
      </p>
      {draft.destructiveCalls.length > 0 && (
        <div className="warn-box small" role="note">
          It calls destructive tools ({draft.destructiveCalls.join(", ")}), so the skill is marked destructive; each such call still asks for approval.
        </div>
      )}
      {existing && (
        <div className="warn-box small" role="note">
          You have a skill named <code>{existing.skill.name}</code>.{" "}
          {sameCode ? "This run is of its code: add it as another test, or replace the skill." : "Saving replaces it (its code and tests)."}
        </div>
      )}
      {problems.length > 0 && (
        <ul className="error-box" role="alert" aria-label="Problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <ModalActions>
        <span className="spacer" />
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        {existing && sameCode && (
          <button type="button" onClick={addTest}>
            Add as a test
          </button>
        )}
        <button type="button" className="primary" onClick={save}>
          {existing ? "Replace skill" : "Save skill"}
        </button>
      </ModalActions>
    </Modal>
  );
}
