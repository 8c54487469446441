import { describe, expect, it } from "vitest";
import { createAgentPrinter, summaryLine } from "@/lib/model/agent-output";

/** Both streams written into one transcript, as a terminal shows them. */
function terminal() {
  let shown = "";
  const out = { write: (text: string) => (shown += text) };
  return { out, err: out, shown: () => shown };
}

describe("npm run agent's output", () => {
  it("puts a status line on a line of its own, after the answer's unfinished line", () => {
    const t = terminal();
    const printer = createAgentPrinter(t.out, t.err);
    printer.text("The cheapest carrier is EuroDash, 5 business days.");
    printer.running("demo_call_1");
    printer.running("demo_call_1");
    printer.text("Done.\n");
    printer.ended("demo_call_1", "ok");
    printer.text("Bye");
    printer.endText();
    expect(t.shown()).toBe("The cheapest carrier is EuroDash, 5 business days.\n· program demo_call_1 running\nDone.\n· program demo_call_1: ok\nBye\n");
  });

  it("says counts in words", () => {
    expect(summaryLine({ modelCalls: 1, work: { programs: 1 }, inputTokens: 10, outputTokens: 2, stop: "done" })).toBe(
      "1 model call, 1 program, 10 input and 2 output tokens; stop: done",
    );
    expect(summaryLine({ modelCalls: 3, work: { toolCalls: 2 }, inputTokens: 0, outputTokens: 0, stop: "max-steps" })).toBe(
      "3 model calls, 2 tool calls, 0 input and 0 output tokens; stop: max-steps",
    );
  });
});
