import { describe, expect, it } from "vitest";
import { manualResultMessage } from "@/lib/model/manual-result";

const stats = { wallMs: 1, hostCalls: 0, peakInFlight: 0 };

describe("manualResultMessage", () => {
  it("carries the code and an ok value with its logs", () => {
    const text = manualResultMessage("return 41 + 1", { ok: true, value: 42, logs: [{ level: "log", text: "hi", time: 1 }], stats });
    expect(text).toBe(
      [
        "I edited the code and ran it myself. Use this result instead of the previous one.",
        "",
        "```ts",
        "return 41 + 1",
        "```",
        "",
        "Result:",
        "```json",
        JSON.stringify({ value: 42, logs: ["log: hi"] }, null, 2),
        "```",
      ].join("\n"),
    );
  });

  it("names a failure's kind and clips huge values", () => {
    const failed = manualResultMessage("x", { ok: false, error: { kind: "tool", message: "boom" }, logs: [], stats });
    expect(failed).toContain("It failed (tool):");
    expect(failed).toContain('"message": "boom"');
    const huge = manualResultMessage("x", { ok: true, value: "y".repeat(50_000), logs: [], stats });
    expect(huge.length).toBeLessThan(9_000);
    expect(huge).toContain("more characters");
  });
});
