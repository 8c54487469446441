import { describe, expect, it } from "vitest";
import { defaultSharedRuns, runInView } from "@/lib/share/run-choice";

describe("the runs a share carries by default", () => {
  it("the conversation's runs and the run in view; eval, compare and agents' runs only when ticked", () => {
    const runs = [
      { id: "eval-2", source: "eval" as const },
      { id: "agent-1", source: "agent" as const },
      { id: "edit-1", source: "editor" as const },
      { id: "chat-3", source: "chat" as const },
      { id: "cmp-1", source: "compare" as const },
      { id: "chat-2", source: "chat" as const },
      { id: "edit-0", source: "editor" as const },
    ];
    expect(runInView(runs)).toBe("edit-1");
    expect(defaultSharedRuns(runs)).toEqual(["edit-1", "chat-3", "chat-2"]);
  });

  it("at most the five newest of the conversation's runs; nothing when the history holds only evals", () => {
    const chat = Array.from({ length: 8 }, (_, i) => ({ id: `chat-${i}`, source: "chat" as const }));
    expect(defaultSharedRuns(chat)).toEqual(["chat-0", "chat-1", "chat-2", "chat-3", "chat-4"]);
    expect(defaultSharedRuns([{ id: "e", source: "eval" }])).toEqual([]);
  });
});
