import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isMysqlFamily, upsertSql } from './upsert-sql';
import { retryingConflicts } from './conflict-retry';
import { changeRows, selectRows } from './sql/run-statement';

const TABLE = 'throttle_window';
/** Ended windows are deleted at most this often per replica (any hit triggers it). */
const SWEEP_INTERVAL_MS = 60_000;

export interface WindowCount {
  /** Hits in the window, this one included. */
  hits: number;
  /** Epoch ms when the window ends. */
  windowEnd: number;
}

/**
 * Rate limits counted in the database (`throttle_window`), so that every replica counts against the same
 * rows: each hit is one atomic upsert that adds to the key's window, or starts a new one of `windowMs`
 * when there is none or it has ended (fixed windows).
 */
export class WindowCounter {
  private readonly logger = new Logger(WindowCounter.name);
  private lastSweep = 0;
  private sweeping?: Promise<void>;

  constructor(private readonly dataSource: DataSource) {}

  /** Counts one hit of the key and returns its window as it is after this hit. */
  async hit(key: string, windowMs: number, now = Date.now()): Promise<WindowCount> {
    this.sweepNowAndThen(now);
    const insert = `INSERT INTO ${TABLE} (throttle_key, hits, window_end) VALUES (?, 1, ?)`;
    // both CASEs read the stored window_end: MySQL assigns left to right, and hits is assigned first
    const update =
      'hits = CASE WHEN window_end <= ? THEN 1 ELSE hits + 1 END, window_end = CASE WHEN window_end <= ? THEN ? ELSE window_end END';
    const sql = upsertSql(this.dataSource, insert, ['throttle_key'], update);
    const parameters = [key, now + windowMs, now, now, now + windowMs];
    const counted = (rows: Record<string, unknown>[]): WindowCount => ({
      hits: Number(rows[0].hits),
      windowEnd: Number(rows[0].window_end),
    });
    const { manager } = this.dataSource;
    if (!isMysqlFamily(this.dataSource)) return counted(await selectRows(manager, `${sql} RETURNING hits, window_end`, parameters, 'once'));
    // the upsert keeps the row locked until commit: the read sees exactly this hit's count
    return retryingConflicts(() =>
      this.dataSource.transaction(async (transaction) => {
        await changeRows(transaction, sql, parameters, 'once');
        return counted(await selectRows(transaction, `SELECT hits, window_end FROM ${TABLE} WHERE throttle_key = ?`, [key], 'once'));
      }),
    );
  }

  /** The key's window as it stands, without counting a hit; undefined when there is none or it has ended. */
  async peek(key: string, now = Date.now()): Promise<WindowCount | undefined> {
    const rows = await selectRows(this.dataSource.manager, `SELECT hits, window_end FROM ${TABLE} WHERE throttle_key = ?`, [key], 'once');
    const windowEnd = Number(rows[0]?.window_end);
    return rows.length && windowEnd > now ? { hits: Number(rows[0].hits), windowEnd } : undefined;
  }

  /** Ends the key's window at once (e.g. a proven secret clears the failures counted before). */
  async forget(key: string): Promise<void> {
    await retryingConflicts(() => changeRows(this.dataSource.manager, `DELETE FROM ${TABLE} WHERE throttle_key = ?`, [key], 'once'));
  }

  /** Waits for a sweep in progress (before the data source closes). */
  async settle(): Promise<void> {
    await this.sweeping;
  }

  /** Deletes ended windows in the background, at most once a minute per replica. */
  private sweepNowAndThen(now: number): void {
    if (this.sweeping || now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    this.sweeping = changeRows(this.dataSource.manager, `DELETE FROM ${TABLE} WHERE window_end <= ?`, [now], 'once')
      .then(
        () => undefined,
        (error: Error) => this.logger.warn(`sweeping ended rate-limit windows failed: ${error.name}`),
      )
      .finally(() => (this.sweeping = undefined));
  }
}
