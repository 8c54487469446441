/**
 * The cap on what one MCP App may send: at most `max` messages in any one-second window. Past
 * that the app is cut off for good (the view closes it and says why); a page that answered
 * every message of a flooding app would stop answering the person. Pure.
 */
export class FloodGate {
  #windowStart = -Infinity;
  #count = 0;
  #tripped = false;

  constructor(
    readonly max: number,
    private readonly windowMs = 1000,
  ) {}

  /** Counts one message at `now` (ms); false once the cap is passed, and from then on. */
  admit(now: number): boolean {
    if (this.#tripped) return false;
    if (now - this.#windowStart >= this.windowMs) {
      this.#windowStart = now;
      this.#count = 0;
    }
    this.#count += 1;
    if (this.#count > this.max) this.#tripped = true;
    return !this.#tripped;
  }

  get tripped(): boolean {
    return this.#tripped;
  }
}
