import { describe, expect, it } from "vitest";
import { toRestorableMessages } from "@/lib/model/restore-messages";

describe("toRestorableMessages", () => {
  it("keeps well-formed messages and their typed parts", () => {
    const messages = toRestorableMessages([
      { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] },
      { id: "a1", role: "assistant", parts: [{ type: "text", text: "hello" }, { nope: true }, null] },
    ]);
    expect(messages).toEqual([
      { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] },
      { id: "a1", role: "assistant", parts: [{ type: "text", text: "hello" }] },
    ]);
  });

  it("drops anything a hostile link could put there, without throwing", () => {
    const hostile = JSON.parse(
      '[{"id":1,"role":"user","parts":[]},{"id":"x","role":"tool","parts":[]},{"id":"y","role":"user"},"text",null,{"__proto__":{"id":"z"}}]',
    ) as unknown[];
    expect(toRestorableMessages(hostile)).toEqual([]);
  });
});
