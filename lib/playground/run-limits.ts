/** The person's run limits over the sandbox defaults, kept in this browser; the model's programs run under the same ones. */
import { Store } from "../state/store";
import { createLimitsStore, sanitiseOverrides, type LimitOverrides } from "../editor/limits-store";

export class RunLimits extends Store<LimitOverrides> {
  readonly #store: ReturnType<typeof createLimitsStore>;

  constructor(storage?: Parameters<typeof createLimitsStore>[0]) {
    const store = createLimitsStore(storage);
    super(store.load());
    this.#store = store;
  }

  /** Replaces the overrides (already validated by the caller) and saves them. */
  readonly replace = (next: LimitOverrides): void => {
    this.set(next);
    this.#store.save(next);
  };

  /** Applies limits from elsewhere (a shared link): unknown or invalid values are dropped. */
  readonly adopt = (value: unknown): void => this.replace(sanitiseOverrides(value));

  readonly reset = (): void => this.replace({});
}
