import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { EARLY_CLICK_ATTRIBUTE, EARLY_CLICKS_GLOBAL, earlyClicksScript, MAX_EARLY_CLICKS, replayEarlyClicks } from "@/lib/playground/browser/early-clicks";

/** A button stand-in: `closest("button")` finds itself; `click()` counts. */
function button(name: string, options: { disabled?: boolean; connected?: boolean } = {}) {
  const b = {
    name,
    disabled: options.disabled ?? false,
    isConnected: options.connected ?? true,
    clicks: 0,
    attributes: new Set<string>(),
    click() {
      b.clicks++;
    },
    setAttribute(name: string) {
      b.attributes.add(name);
    },
    removeAttribute(name: string) {
      b.attributes.delete(name);
    },
    closest: (selector: string) => (selector === "button" ? b : null),
  };
  return b;
}

/** Runs the inline script against a window and document stand-in; returns what a click does. */
function page() {
  const window: Record<string, unknown> = {};
  let listener: ((event: { target: unknown }) => void) | undefined;
  let capture: unknown;
  const document = {
    addEventListener: (type: string, l: (event: { target: unknown }) => void, c: unknown) => {
      if (type === "click") [listener, capture] = [l, c];
    },
  };
  runInNewContext(earlyClicksScript(), { window, document });
  return { window, capture: () => capture, click: (target: unknown) => listener?.({ target }) };
}

describe("clicks before hydration", () => {
  it("are noted in order, once per button, in the capture phase, and clicked again once hydrated", () => {
    const p = page();
    expect(p.capture()).toBe(true);
    const [prompt, add, off] = [button("prompt"), button("add"), button("off", { disabled: true })];
    p.click(prompt);
    p.click(add);
    p.click(prompt);
    p.click(off);
    // A click on a label inside a button counts for the button; a click elsewhere for nothing.
    p.click({ closest: () => add });
    p.click({ closest: () => null });
    p.click(null);
    expect(p.window[EARLY_CLICKS_GLOBAL]).toEqual([prompt, add]);
    // Marked at once, so the person sees the click was taken; unmarked when replayed.
    expect([prompt, add, off].map((b) => b.attributes.has(EARLY_CLICK_ATTRIBUTE))).toEqual([true, true, false]);
    expect(replayEarlyClicks(p.window)).toBe(2);
    expect([prompt, add].map((b) => b.attributes.size)).toEqual([0, 0]);
    expect([prompt.clicks, add.clicks, off.clicks]).toEqual([1, 1, 0]);
    // Once replayed, the script notes nothing more and a second replay clicks nothing.
    p.click(button("late"));
    expect(p.window[EARLY_CLICKS_GLOBAL]).toBeNull();
    expect(replayEarlyClicks(p.window)).toBe(0);
  });

  it("keeps at most a handful, and skips buttons gone or disabled by the time the page answers", () => {
    const p = page();
    const buttons = Array.from({ length: MAX_EARLY_CLICKS + 3 }, (_, i) => button(`b${i}`));
    for (const b of buttons) p.click(b);
    expect((p.window[EARLY_CLICKS_GLOBAL] as unknown[]).length).toBe(MAX_EARLY_CLICKS);
    buttons[0]!.isConnected = false;
    buttons[1]!.disabled = true;
    expect(replayEarlyClicks(p.window)).toBe(MAX_EARLY_CLICKS - 2);
    expect(buttons.map((b) => b.clicks)).toEqual([0, 0, 1, 1, 1, 0, 0, 0]);
    // A button gone or disabled loses its mark too.
    expect(buttons.some((b) => b.attributes.size > 0)).toBe(false);
  });

  it("clicks nothing when there is no list, or a list of things that are not buttons", () => {
    expect(replayEarlyClicks({})).toBe(0);
    expect(replayEarlyClicks({ [EARLY_CLICKS_GLOBAL]: "x" })).toBe(0);
    expect(
      replayEarlyClicks({
        [EARLY_CLICKS_GLOBAL]: [1, null, { click: "no" }, { click: () => undefined }, { click: () => undefined, disabled: false, isConnected: true }],
      }),
    ).toBe(0);
  });
});
