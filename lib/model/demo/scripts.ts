/** Every demo script, in catalog order. */
import type { DemoScript } from "./demo-script";
import { LAB_SCRIPTS } from "./scripts-lab";
import { NEWS_SCRIPTS } from "./scripts-news";
import { LARGE_RESULT_SCRIPTS } from "./scripts-large-results";
import { SHIPPING_SCRIPTS } from "./scripts-shipping";
import { STORE_SCRIPTS } from "./scripts-store";

/** All scripted examples. */
export const DEMO_SCRIPTS: readonly DemoScript[] = [...SHIPPING_SCRIPTS, ...LARGE_RESULT_SCRIPTS, ...NEWS_SCRIPTS, ...STORE_SCRIPTS, ...LAB_SCRIPTS];
