/**
 * The one shape of page state (docs/page-state.md, "Page state"): a store holds an immutable
 * snapshot, replaces it on every change and tells its subscribers. React reads it with
 * `useStore(store, selector)` (components/hooks/use-store.ts), which re-renders a component only
 * when its selected slice changes; Node code reads `snapshot()` and subscribes like anyone else.
 * Framework-free.
 */

/** Anything a component can subscribe to. `subscribe` and `snapshot` are bound: pass them as they are. */
export interface ReadableStore<S> {
  readonly subscribe: (listener: () => void) => () => void;
  readonly snapshot: () => S;
}

/** A store: `set` replaces the snapshot (the same value tells nobody), subscribers hear of each change. */
export class Store<S> implements ReadableStore<S> {
  #state: S;
  readonly #listeners = new Set<() => void>();

  constructor(initial: S) {
    this.#state = initial;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  readonly snapshot = (): S => this.#state;

  /** Replaces the snapshot and tells every subscriber; one subscriber's throw does not stop the rest. */
  protected set(next: S): void {
    if (Object.is(next, this.#state)) return;
    this.#state = next;
    let failure: unknown;
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }

  /** Subscribers now (tests, leak checks). */
  protected get subscriberCount(): number {
    return this.#listeners.size;
  }
}
