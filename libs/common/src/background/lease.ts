import { DataSource, EntityTarget, LessThan } from 'typeorm';
import { isDuplicateKeyError } from '../persistence/db-errors';
import { LeaseRecord, ReplicaLease } from '../persistence/replica-lease.entity';
import { replicaName } from './coalescing-loop';

/**
 * Background work that one replica at a time may do, among the replicas sharing a database: a replica
 * works only while it holds the unexpired lease, and renews it as it goes. A replica that stops without
 * releasing it (a crash) holds it until it expires.
 */
export class Lease {
  constructor(
    private readonly dataSource: DataSource,
    readonly name: string,
    /** This replica's name on the lease. */
    readonly holder: string = replicaName(),
    private readonly table: EntityTarget<LeaseRecord> = ReplicaLease,
  ) {}

  /**
   * Takes the lease (free or expired) or renews it (held by this replica) until `until`; false when another
   * replica holds it. One conditional UPDATE (atomic on MariaDB's row lock and on SQLite's single writer),
   * or the first INSERT when no replica ever held it.
   */
  async claim(until: number): Promise<boolean> {
    const repo = this.dataSource.getRepository(this.table);
    const result = await repo
      .createQueryBuilder()
      .update()
      .set({ holder: this.holder, expiresTime: until })
      .where([
        { name: this.name, holder: this.holder },
        { name: this.name, expiresTime: LessThan(Date.now()) },
      ])
      .execute();
    if ((result.affected ?? 0) > 0) return true;
    try {
      await repo.insert({ name: this.name, holder: this.holder, expiresTime: until });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false; // held by another replica
      throw error;
    }
  }

  /** Hands the lease on at once, if this replica holds it. */
  async release(): Promise<void> {
    await this.dataSource.getRepository(this.table).update({ name: this.name, holder: this.holder }, { expiresTime: 0 });
  }
}
