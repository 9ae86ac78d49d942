import { DataSource, In, LessThan } from 'typeorm';
import { DAY_MS } from '../config/retention.config';
import { RecordHistory } from '../history/record-history.entity';

/**
 * The history entries older than a period, every tenant's: a retention batch reads at most `limit` identifiers in the
 * order of the time index (the read stops after `limit` entries however many are due), then removes them by primary
 * key. Entries are the library's own rows, written only by triggers, so this crosses tenants on purpose.
 */
export class OldHistory {
  constructor(
    private readonly dataSource: DataSource,
    private readonly days: number,
  ) {}

  /** Whether this data source keeps history at all (a fixture's may not). */
  static kept(dataSource: DataSource): boolean {
    return dataSource.hasMetadata(RecordHistory);
  }

  /** Identifiers of at most `limit` entries older than the period at `now`, oldest first. */
  async someIds(now: number, limit: number): Promise<string[]> {
    const rows = await this.dataSource.getRepository(RecordHistory).find({
      select: { historyId: true },
      where: { time: LessThan(now - this.days * DAY_MS) },
      order: { time: 'ASC' },
      take: limit,
    });
    return rows.map((row) => String(row.historyId));
  }

  /** The entries with these identifiers removed; how many went. */
  async remove(ids: string[]): Promise<number> {
    return (await this.dataSource.getRepository(RecordHistory).delete({ historyId: In(ids) })).affected ?? ids.length;
  }
}
