/**
 * Skills a connected server publishes with MCP's Skills extension (SEP-2640;
 * docs/mcp-client.md, "Skills a server publishes"), as the page shows them on the server's card:
 * listed when the person opens the card's section (never fetched before), a skill's SKILL.md read
 * when the person asks for it, its size and digest checked against the listing by the SDK's
 * SkillsClient before it is shown, and never run. A store (lib/state/store.ts): per server id,
 * where its list stands and which SKILL.md is shown.
 */
import { Store } from "../state/store";
import type { McpConnection } from "./live-connection";
import { messageOf } from "../text/error-message";

/** A published skill: its SKILL.md's URI, its frontmatter's name and description, its files. */
export interface PublishedSkill {
  uri: string;
  name: string;
  description: string;
  /** Each file with its size, or "dynamic" when the server does not list them. */
  files: ReadonlyArray<{ uri: string; size: number }> | "dynamic";
}

/** One file of a skill as read: its text, and whether its size and digest matched the listing. */
export interface PublishedSkillFile {
  uri: string;
  text: string;
  verified: boolean;
}

/** What the card shows of one skill's file: the text, or why it is not shown. */
export type ShownSkill = { skillUri: string; file: PublishedSkillFile } | { skillUri: string; error: string } | { skillUri: string; reading: true };

/** Where one server's published skills stand. */
export type ServerSkills =
  { state: "loading" } | { state: "ready"; skills: readonly PublishedSkill[]; invalid: number; shown?: ShownSkill } | { state: "error"; error: string };

/** The skills of each server whose section was opened, by server id. */
export class PublishedSkillsStore extends Store<Readonly<Record<string, ServerSkills>>> {
  constructor(private readonly connectionOf: (serverId: string) => Pick<McpConnection, "listPublishedSkills" | "readPublishedSkill"> | undefined) {
    super({});
  }

  /** Lists a server's skills, once (again after a failure or `forget`). */
  async open(serverId: string): Promise<void> {
    const now = this.snapshot()[serverId];
    if (now && now.state !== "error") return;
    const connection = this.connectionOf(serverId);
    if (!connection?.listPublishedSkills) {
      this.put(serverId, { state: "error", error: "This server is not connected, or publishes no skills." });
      return;
    }
    this.put(serverId, { state: "loading" });
    try {
      const { skills, invalid } = await connection.listPublishedSkills();
      this.put(serverId, { state: "ready", skills, invalid });
    } catch (error) {
      this.put(serverId, { state: "error", error: `Listing the skills failed: ${messageOf(error)}` });
    }
  }

  /** Reads one skill's SKILL.md, checked; a file whose size or digest differs from the listing is refused, saying so. */
  async show(serverId: string, skillUri: string): Promise<void> {
    const now = this.snapshot()[serverId];
    const connection = this.connectionOf(serverId);
    if (now?.state !== "ready") return;
    this.put(serverId, { ...now, shown: { skillUri, reading: true } });
    let shown: ShownSkill;
    try {
      if (!connection?.readPublishedSkill) throw new Error("This server is no longer connected.");
      shown = { skillUri, file: await connection.readPublishedSkill(skillUri) };
    } catch (error) {
      shown = { skillUri, error: `Not shown: ${messageOf(error)}` };
    }
    const after = this.snapshot()[serverId];
    if (after?.state === "ready") this.put(serverId, { ...after, shown });
  }

  /** Hides the shown file. */
  hide(serverId: string): void {
    const now = this.snapshot()[serverId];
    if (now?.state === "ready" && now.shown) this.put(serverId, { state: "ready", skills: now.skills, invalid: now.invalid });
  }

  /** Drops what is known of a server (it reconnected or went away). */
  forget(serverId: string): void {
    if (!(serverId in this.snapshot())) return;
    const { [serverId]: _gone, ...rest } = this.snapshot();
    this.set(rest);
  }

  private put(serverId: string, state: ServerSkills): void {
    this.set({ ...this.snapshot(), [serverId]: state });
  }
}
