import { withTimeout } from '../health/health-details';

/** How often at most a gauge counted in the database is counted again: scrapes in between show the last count. */
export const GAUGE_REFRESH_MS = 15_000;
/** How long a scrape waits for such a count: a later one ends unwaited, and the scrape shows the last count. */
export const GAUGE_READ_DEADLINE_MS = 2_000;

/**
 * A gauge's value read from the database at most once per `refreshMs`, however often `/metrics` is scraped:
 * a scrape within the interval shows the last value read, scrapes that arrive while a read is under way share
 * it (never two reads at once), and none waits longer than `deadlineMs`. A scrape then costs the same whatever
 * the tables hold. A read that fails (an unavailable database) leaves the last value: readiness reports that.
 */
export class PeriodicReading<T> {
  private value?: T;
  private lastStart = Number.NEGATIVE_INFINITY;
  private reading?: Promise<void>;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly refreshMs = GAUGE_REFRESH_MS,
    private readonly deadlineMs = GAUGE_READ_DEADLINE_MS,
  ) {}

  /** The value read last (undefined until one read succeeded), read again first when the last read began `refreshMs` ago. */
  async current(): Promise<T | undefined> {
    if (!this.reading && Date.now() - this.lastStart >= this.refreshMs) {
      this.lastStart = Date.now();
      this.reading = this.read()
        .then(
          (value) => void (this.value = value),
          () => undefined,
        )
        .finally(() => (this.reading = undefined));
    }
    if (this.reading) await withTimeout(this.reading, this.deadlineMs);
    return this.value;
  }
}
