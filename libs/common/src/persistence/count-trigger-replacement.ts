import { QueryRunner } from 'typeorm';
import { replacingTrigger, swapsTriggersInPlace } from './trigger-swap';
import { createDeletedCountTriggers, deletedCountTriggerNames, deletedCountTriggers } from './deleted-count-sql';
import {
  createLiveCountTriggers,
  filterColumnsCountedBy,
  insertTriggerName,
  liveCountTriggerNames,
  liveCountTriggers,
} from './live-count-sql';

/**
 * MySQL/MariaDB migrations: `table`'s count triggers (live, filter and deleted counts, those it has) replaced by the
 * current code's text for the same filter columns, for a change of what the triggers write that leaves the counts
 * right as they are (the slot a write adds to: reads sum every slot).
 *
 * On MariaDB each trigger is swapped in one statement (CREATE OR REPLACE TRIGGER): a write runs with either the old
 * trigger or the new one, so no table lock and no recount is needed, and the migration never stalls writers (nor,
 * on Galera, the cluster). MySQL has no such statement: there the triggers are made anew and the counts brought up
 * to the rows, as the migration that first made them did (catchUpCounts, which locks no table either).
 */
export async function replaceCountTriggers(queryRunner: QueryRunner, table: string): Promise<void> {
  const live = liveCountTriggerNames(table);
  const deleted = deletedCountTriggerNames(table);
  const found = (await queryRunner.query(
    `SELECT TRIGGER_NAME AS name, ACTION_STATEMENT AS statement FROM information_schema.TRIGGERS ` +
      `WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = ?`,
    [table],
  )) as { name: string; statement: string }[];
  const names = new Set(found.map((row) => row.name));
  const hasLive = live.every((name) => names.has(name));
  const hasDeleted = deleted.every((name) => names.has(name));
  const insert = found.find((row) => row.name === insertTriggerName(table));
  const filterColumns = insert ? filterColumnsCountedBy(insert.statement) : [];
  if (!(await swapsTriggersInPlace(queryRunner))) {
    if (hasLive) await createLiveCountTriggers(queryRunner, table, filterColumns);
    if (hasDeleted) await createDeletedCountTriggers(queryRunner, table);
    return;
  }
  const statements = [
    ...(hasLive ? liveCountTriggers('mysql', table, filterColumns) : []),
    ...(hasDeleted ? deletedCountTriggers('mysql', table) : []),
  ];
  for (const sql of statements) await queryRunner.query(replacingTrigger(sql));
}
