/** The session kept across reloads, as plain functions (lib/playground/saved-session.ts): a save restored into fresh stores gives the same session. */
import { describe, expect, it } from "vitest";
import { restoreSavedSession, sessionToSave, type SessionTargets } from "@/lib/playground/saved-session";
import { syntheticRun } from "@/lib/timeline/synthetic-run";
import type { CodeModeUIMessage } from "@/lib/model/types";

const messages: CodeModeUIMessage[] = [{ id: "m1", role: "user", parts: [{ type: "text", text: "cheapest carrier?" }] }];
const newest = { ...syntheticRun(3, 1), id: "run-2" };
const oldest = { ...syntheticRun(3, 2), id: "run-1" };
const codeHistory = [{ toolCallId: "call-1", code: "return 1;", at: 1 }];

function stores() {
  const done: string[] = [];
  const targets: SessionTargets = {
    restoreConversation: (m) => done.push(`conversation ${m.length}`),
    addRun: (record, source) => done.push(`run ${record.id} ${source ?? "-"}`),
    restoreCodeHistory: (entries) => done.push(`code history ${entries.length}`),
  };
  return { targets, done };
}

describe("the saved session", () => {
  it("a save restored into fresh stores: the conversation, the runs oldest first with their sources, the code history", () => {
    const { snapshot, droppedRuns } = sessionToSave(
      {
        messages,
        runs: [
          { record: newest, source: "eval" },
          { record: oldest, source: "chat" },
        ],
        codeHistory,
      },
      new Date("2026-11-26T12:00:00Z"),
    );
    expect(droppedRuns).toBe(0);
    expect(snapshot.savedAt).toBe("2026-11-26T12:00:00.000Z");
    // Through storage: structured clone keeps it as JSON would.
    const stored: unknown = JSON.parse(JSON.stringify(snapshot));
    const { targets, done } = stores();
    expect(restoreSavedSession(stored, targets, { restoreConversation: true })).toBe(true);
    expect(done).toEqual(["conversation 1", "run run-1 chat", "run run-2 eval", "code history 1"]);
  });

  it("a page opened from a shared link keeps the link's conversation but gets the runs and code history", () => {
    const { snapshot } = sessionToSave({ messages, runs: [{ record: newest, source: "chat" }], codeHistory });
    const { targets, done } = stores();
    restoreSavedSession(snapshot, targets, { restoreConversation: false });
    expect(done).toEqual(["run run-2 chat", "code history 1"]);
  });

  it("damaged or foreign data restores nothing", () => {
    for (const value of [undefined, null, "text", { version: 999 }, []]) {
      const { targets, done } = stores();
      expect(restoreSavedSession(value, targets, { restoreConversation: true })).toBe(false);
      expect(done).toEqual([]);
    }
  });
});
