import { ImportTrust1795470318204 } from '../messaging/migrations/1795470318204-ImportTrust';
import { KafkaOutbox1795388775655 } from '../messaging/migrations/1795388775655-KafkaOutbox';
import { OutboxTraceContext1796210000000 } from '../messaging/migrations/1796210000000-OutboxTraceContext';
import type { MigrationClass } from './database';
import { ReplicaState1795700000000 } from './migrations/1795700000000-ReplicaState';
import { ReplicaLease1795900000000 } from './migrations/1795900000000-ReplicaLease';
import { LiveCounts1795910000000 } from './migrations/1795910000000-LiveCounts';
import { WriteCounts1796000000000 } from './migrations/1796000000000-WriteCounts';
import { FilterCounts1796100000000 } from './migrations/1796100000000-FilterCounts';
import { DeletedCounts1796300000000 } from './migrations/1796300000000-DeletedCounts';
import { RecordHistory1796400000000 } from './migrations/1796400000000-RecordHistory';
import { CountSlotsPerNode1796400000200 } from './migrations/1796400000200-CountSlotsPerNode';
import { HistoryCounts1796400000300 } from './migrations/1796400000300-HistoryCounts';
import { HistoryTimeIndex1796400000400 } from './migrations/1796400000400-HistoryTimeIndex';

/** The library's tables every service has (COMMON_ENTITIES: live, write, filter and deleted counts, throttle windows, replica leases, record history and its counts), in order. */
export const COMMON_MIGRATIONS: MigrationClass[] = [
  ReplicaState1795700000000,
  ReplicaLease1795900000000,
  LiveCounts1795910000000,
  WriteCounts1796000000000,
  FilterCounts1796100000000,
  DeletedCounts1796300000000,
  RecordHistory1796400000000,
  CountSlotsPerNode1796400000200,
  HistoryCounts1796400000300,
  HistoryTimeIndex1796400000400,
];

/** MessagingModule's tables (MESSAGING_ENTITIES: outbox, leases, import batches and rejections), in order. */
export const MESSAGING_MIGRATIONS: MigrationClass[] = [KafkaOutbox1795388775655, ImportTrust1795470318204, OutboxTraceContext1796210000000];

/** The timestamp a migration's class name ends with, which TypeORM orders migrations by. */
function timestampOf(migration: MigrationClass): number {
  const digits = /(\d{13})$/.exec(migration.name)?.[1];
  if (!digits) throw new Error(`migration ${migration.name}: its class name must end with a 13-digit timestamp`);
  return Number(digits);
}

/**
 * A service's migrations, its own and the library's lists it applies, as one list in timestamp order (the
 * order TypeORM runs them in). Two migrations of one timestamp would run in an arbitrary order: refused.
 */
export function mergeMigrations(...lists: MigrationClass[][]): MigrationClass[] {
  const merged = [...new Set(lists.flat())].map((migration) => ({ migration, timestamp: timestampOf(migration) }));
  merged.sort((a, b) => a.timestamp - b.timestamp);
  merged.forEach(({ migration, timestamp }, i) => {
    if (i > 0 && merged[i - 1].timestamp === timestamp)
      throw new Error(`migrations ${merged[i - 1].migration.name} and ${migration.name} share one timestamp`);
  });
  return merged.map(({ migration }) => migration);
}
