/**
 * Stands in for zod's index of its 60-odd locales in the page's bundle (next.config.js,
 * docs/speed.md, "The page's start"): zod's namespace re-exports them all, so no bundler
 * can leave them out, and the page only ever uses English, zod's default.
 */
export { default as en } from "zod/v4/locales/en.js";
