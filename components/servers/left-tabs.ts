/** The left panel's tabs, kept in this browser under one key (components/hooks/use-stored-choice.ts). */
export const LEFT_TABS = ["servers", "tools", "skills"] as const;

/** The stored choice's key: the Tools view opens the Skills tab through it. */
export const LEFT_TAB_KEY = "cmp.tab.left";
