/**
 * Clicks made before the page has hydrated. The server renders the whole first screen (the
 * example prompts, Add server), but until React has attached its handlers a click on a button
 * does nothing, and a person who clicks an example prompt while the bundles load would see no
 * answer at all. A line of inline script at the top of the page (app/page.tsx) notes the buttons
 * clicked until then and marks each at once (`data-early-click`, styled in app/globals.css), so
 * the person sees the click was taken; once hydrated, the page clicks them again, in order, and
 * removes the marks (docs/speed.md, "The page's start").
 */

/** The global the inline script keeps its list under, until the page replays it. */
export const EARLY_CLICKS_GLOBAL = "__cmpEarlyClicks";

/** The attribute a noted button carries until its click is replayed. */
export const EARLY_CLICK_ATTRIBUTE = "data-early-click";

/** At most this many clicks are kept: a person clicking on and on at a page that does not answer. */
export const MAX_EARLY_CLICKS = 5;

/** The inline script's text: notes and marks each button clicked (once each, at most MAX_EARLY_CLICKS) while the list exists. */
export function earlyClicksScript(): string {
  const name = JSON.stringify(EARLY_CLICKS_GLOBAL);
  return (
    `(function(){var q=window[${name}]=[];document.addEventListener("click",function(e){` +
    `if(window[${name}]!==q||q.length>=${MAX_EARLY_CLICKS})return;var t=e.target,b=t&&t.closest?t.closest("button"):null;` +
    `if(b&&!b.disabled&&q.indexOf(b)<0){q.push(b);b.setAttribute(${JSON.stringify(EARLY_CLICK_ATTRIBUTE)},"")}},true)})();`
  );
}

/**
 * Ends the noting and clicks again each noted button that is still on the page and enabled.
 * Called once React has hydrated; returns how many it clicked.
 */
export function replayEarlyClicks(scope: Record<string, unknown> = globalThis): number {
  const noted = scope[EARLY_CLICKS_GLOBAL];
  scope[EARLY_CLICKS_GLOBAL] = null;
  if (!Array.isArray(noted)) return 0;
  let clicked = 0;
  for (const button of noted.slice(0, MAX_EARLY_CLICKS)) {
    if (!isButton(button)) continue;
    button.removeAttribute(EARLY_CLICK_ATTRIBUTE);
    if (!button.isConnected || button.disabled) continue;
    button.click();
    clicked++;
  }
  return clicked;
}

/** What the list may hold: the script's buttons, or, from a page script that replaced it, anything. */
function isButton(value: unknown): value is Pick<HTMLButtonElement, "click" | "disabled" | "isConnected" | "removeAttribute"> {
  if (typeof value !== "object" || value === null) return false;
  const b = value as Partial<HTMLButtonElement>;
  return typeof b.click === "function" && typeof b.removeAttribute === "function" && typeof b.disabled === "boolean" && typeof b.isConnected === "boolean";
}
