/**
 * Concurrent calls of one action, sharing its runs: a call is answered by the first run that starts
 * after it was made (never by one already under way, which may have missed what the caller did just
 * before), and runs never overlap. However many calls arrive while a run is under way, one more run
 * follows it for all of them. For actions whose later run covers every earlier call, such as counting
 * "something was written" or reading a value that must not be older than the call.
 */
export class SharedRun<T> {
  private running?: Promise<T>;
  private queued?: Promise<T>;

  constructor(private readonly action: () => Promise<T>) {}

  /** True while a run is under way or queued (an idle instance may be dropped). */
  get busy(): boolean {
    return this.running !== undefined || this.queued !== undefined;
  }

  run(): Promise<T> {
    if (this.queued) return this.queued;
    if (!this.running) return this.begin();
    const after = this.running.then(
      () => undefined,
      () => undefined,
    );
    this.queued = after.then(() => {
      this.queued = undefined;
      return this.begin();
    });
    return this.queued;
  }

  private begin(): Promise<T> {
    const run = this.action().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }
}

/**
 * SharedRun per key (e.g. resource and tenant); an entry lives while it has a run under way or queued.
 * Calls with one key must ask for the same work: the action of the call that made the entry runs for all.
 */
export class SharedRuns<T> {
  private readonly byKey = new Map<string, SharedRun<T>>();

  async run(key: string, action: () => Promise<T>): Promise<T> {
    let shared = this.byKey.get(key);
    if (!shared) this.byKey.set(key, (shared = new SharedRun(action)));
    try {
      return await shared.run();
    } finally {
      if (!shared.busy && this.byKey.get(key) === shared) this.byKey.delete(key);
    }
  }

  /** Keys with a run under way or queued. */
  get size(): number {
    return this.byKey.size;
  }
}
