/**
 * The page's skills (docs/agents.md, "Skills"): kept in this browser (IndexedDB, beside the
 * session but not cleared with it), offered to programs, the model and the Tools catalog once
 * trusted. A skill saved here is trusted; an imported one (a file, a folder, a share link) waits
 * for review: shown with its code, offered to nothing until the person trusts it, like an
 * imported stdio command. Test results live here too, per skill, until the skill changes.
 */
import { Store } from "../state/store";
import type { KeyValueStore } from "../storage/key-value";
import type { Skill, SkillTest } from "../skills/skill";
import { parseSkillsFile, skillsFileText } from "../skills/skill-file";
import type { SkillTestResult } from "../skills/skill-tests";
import type { RunRecord } from "../timeline/run-record";

/** A kept skill, and whether it may run yet. */
export interface SkillEntry {
  skill: Skill;
  /** "review": imported and not yet trusted; it is not offered to programs or the model. */
  status: "trusted" | "review";
  /** Where an imported skill came from ("skills.json", "a share link"). */
  from?: string;
}

/** One skill's last test run. */
export type SkillTestRun = { state: "running" } | { state: "done"; results: readonly SkillTestResult[]; at: number } | { state: "failed"; message: string };

export interface SkillsState {
  entries: readonly SkillEntry[];
  /** Last test run per skill name. */
  tests: Readonly<Record<string, SkillTestRun>>;
  /** Why the saved skills could not be read, when they could not. */
  loadError?: string;
  /** What became of skills that arrived with a shared link, when some were refused. */
  sharedNotice?: string;
}

/** Where the skills are kept in the page's key-value store. */
export const SKILLS_KEY = "skills";

interface Saved {
  text: string;
  review: string[];
  from?: Record<string, string>;
}

/** The skill the Skills tab shows (undefined: the list); the Tools view opens one there. */
export class SkillInViewStore extends Store<string | undefined> {
  show(name: string | undefined): void {
    this.set(name);
  }
}

/** The run the Save as skill dialog is open for (undefined: closed). */
export class SkillDialogStore extends Store<RunRecord | undefined> {
  open(record: RunRecord): void {
    this.set(record);
  }
  close(): void {
    this.set(undefined);
  }
}

const trustedOf = new WeakMap<readonly SkillEntry[], readonly Skill[]>();

export class SkillStore extends Store<SkillsState> {
  readonly #kv: KeyValueStore | undefined;
  readonly #now: () => Date;

  constructor(kv?: KeyValueStore, now: () => Date = () => new Date()) {
    super({ entries: [], tests: {} });
    this.#loaded = new Promise((resolve) => (this.#markLoaded = resolve));
    this.#kv = kv;
    this.#now = now;
  }

  /** The skills programs and the model may use (trusted ones), the same array while they do not change. */
  readonly trusted = (): readonly Skill[] => {
    const { entries } = this.snapshot();
    let skills = trustedOf.get(entries);
    if (!skills) trustedOf.set(entries, (skills = entries.filter((e) => e.status === "trusted").map((e) => e.skill)));
    return skills;
  };

  /** Names of the skills held for review: a program that calls one is told so (lib/skills/skill-host.ts). */
  readonly held = (): readonly string[] => this.snapshot().entries.flatMap((e) => (e.status === "review" ? [e.skill.name] : []));

  /**
   * Settles once the saved skills were read: saving starts then, so a skill added before (a share
   * link opened as the page loads) never overwrites the stored ones. Like the session, a store
   * that is never loaded never saves.
   */
  readonly #loaded: Promise<void>;
  #markLoaded: () => void = () => undefined;

  /** Reads the saved skills once (read like any file: a damaged save is reported, not trusted). */
  async load(): Promise<void> {
    try {
      await this.#load();
    } finally {
      this.#markLoaded();
    }
  }

  async #load(): Promise<void> {
    const saved = (await this.#kv?.get(SKILLS_KEY).catch(() => undefined)) as Saved | undefined;
    if (!saved || typeof saved.text !== "string") return;
    const read = parseSkillsFile(saved.text);
    if (!read.ok) {
      this.set({ ...this.snapshot(), loadError: `The saved skills could not be read: ${read.errors.slice(0, 3).join("; ")}` });
      return;
    }
    const review = new Set(Array.isArray(saved.review) ? saved.review : []);
    const entries = read.skills.map((skill): SkillEntry => {
      const from = saved.from?.[skill.name];
      return { skill, status: review.has(skill.name) ? "review" : "trusted", ...(typeof from === "string" ? { from } : {}) };
    });
    // Anything saved meanwhile (a skill saved before the load finished) wins over the stored copy.
    const current = this.snapshot().entries;
    const merged = [...entries.filter((e) => !current.some((c) => c.skill.name === e.skill.name)), ...current];
    this.set({ ...this.snapshot(), entries: merged });
  }

  /** The entry of a name, if any. */
  get(name: string): SkillEntry | undefined {
    return this.snapshot().entries.find((e) => e.skill.name === name);
  }

  /** Saves a skill the person made (trusted); one of the same name is replaced, its test results dropped. */
  save(skill: Omit<Skill, "createdAt" | "updatedAt">): Skill {
    const at = this.#now().toISOString();
    const existing = this.get(skill.name);
    const saved: Skill = { ...skill, createdAt: existing?.skill.createdAt ?? at, updatedAt: at };
    this.#put([...this.snapshot().entries.filter((e) => e.skill.name !== skill.name), { skill: saved, status: "trusted" }], skill.name);
    return saved;
  }

  /** Adds a test to a kept skill (a later run of the same program). */
  addTest(name: string, test: SkillTest): void {
    const entry = this.get(name);
    if (!entry) return;
    const tests = [...entry.skill.tests.filter((t) => t.name !== test.name), test];
    this.#replace({ ...entry, skill: { ...entry.skill, tests, updatedAt: this.#now().toISOString() } });
  }

  /** Replaces a kept skill's code (the person edited it); its tests stay, to say what the edit changed. */
  setCode(name: string, code: string): void {
    const entry = this.get(name);
    if (!entry || entry.skill.code === code) return;
    this.#replace({ ...entry, skill: { ...entry.skill, code, updatedAt: this.#now().toISOString() } });
  }

  remove(name: string): void {
    this.#put(
      this.snapshot().entries.filter((e) => e.skill.name !== name),
      name,
    );
  }

  /** The person read an imported skill and lets it run. */
  trust(name: string): void {
    const entry = this.get(name);
    if (entry?.status === "review") this.#replace({ skill: entry.skill, status: "trusted" });
  }

  /**
   * Imported skills, held for review. A name already kept is refused (delete or rename the kept
   * one first): an import never replaces what the person has. Returns what was refused and why.
   */
  importSkills(skills: readonly Skill[], from: string): { added: string[]; refused: string[] } {
    const added: string[] = [];
    const refused: string[] = [];
    const entries = [...this.snapshot().entries];
    for (const skill of skills) {
      if (entries.some((e) => e.skill.name === skill.name)) {
        refused.push(`${skill.name}: you already have a skill of this name (delete yours first to import this one)`);
        continue;
      }
      entries.push({ skill, status: "review", from });
      added.push(skill.name);
    }
    if (added.length > 0) this.#put(entries);
    return { added, refused };
  }

  /** Says what became of a shared link's skills that were refused (shown in the Skills tab). */
  noteShared(refused: readonly string[]): void {
    if (refused.length === 0) return;
    this.set({ ...this.snapshot(), sharedNotice: `Skills from the shared link were not imported:\n${refused.slice(0, 10).join("\n")}` });
  }

  /** Records a test run's state for a skill. */
  setTests(name: string, run: SkillTestRun): void {
    this.set({ ...this.snapshot(), tests: { ...this.snapshot().tests, [name]: run } });
  }

  #replace(entry: SkillEntry): void {
    this.#put(
      this.snapshot().entries.map((e) => (e.skill.name === entry.skill.name ? entry : e)),
      entry.skill.name,
    );
  }

  /** New entries; the changed skill's test results are dropped (they were about other code). */
  #put(entries: SkillEntry[], changed?: string): void {
    const tests = { ...this.snapshot().tests };
    if (changed !== undefined) delete tests[changed];
    this.set({ ...this.snapshot(), entries, tests });
    void this.#save();
  }

  async #save(): Promise<void> {
    if (!this.#kv) return;
    await this.#loaded;
    // A damaged save stays as it was until the person changes something after reading why.
    const { entries } = this.snapshot();
    const saved: Saved = {
      text: skillsFileText(entries.map((e) => e.skill)),
      review: entries.filter((e) => e.status === "review").map((e) => e.skill.name),
      from: Object.fromEntries(entries.flatMap((e) => (e.from ? [[e.skill.name, e.from]] : []))),
    };
    await this.#kv.set(SKILLS_KEY, saved).catch(() => undefined);
  }
}
