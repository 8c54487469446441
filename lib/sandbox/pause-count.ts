/**
 * A reference-counted pause: the first hold calls `onPause`, the release of the last one calls
 * `onResume`. Several host calls can wait for a person at once, and each must be able to let go
 * without resuming the others' clock. Each release function works once; later calls do nothing.
 */
export class PauseCount {
  private readonly releases = new Set<() => void>();

  constructor(
    private readonly onPause: () => void,
    private readonly onResume: () => void,
  ) {}

  get paused(): boolean {
    return this.releases.size > 0;
  }

  /** Pauses (if not paused already) until the returned function is called. */
  hold(): () => void {
    const release = () => {
      if (!this.releases.delete(release)) return;
      if (this.releases.size === 0) this.onResume();
    };
    this.releases.add(release);
    if (this.releases.size === 1) this.onPause();
    return release;
  }

  /** Lets go of every hold still out: what held them (a call) is over, so its pause is too. */
  releaseAll(): void {
    for (const release of [...this.releases]) release();
  }
}
