import { MigrationInterface, QueryRunner } from 'typeorm';
import { replaceCountTriggers } from '../count-trigger-replacement';
import { recordTables } from '../record-tables';

/**
 * Every record table's count triggers add to a slot of their server's own (live-count-sql.ts MYSQL_COUNT_SLOT), so
 * writers on different nodes of a Galera cluster never update one counter row. The counts stay as they are (reads
 * sum all slots); on MariaDB each trigger is swapped in one statement, without a table lock. Shared-library
 * migration: every service registers this, for its own record tables.
 */
export class CountSlotsPerNode1796400000200 implements MigrationInterface {
  name = 'CountSlotsPerNode1796400000200';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) await replaceCountTriggers(queryRunner, table);
  }

  /** The slot by connection alone is a matter of contention only: the new triggers count as right on one server. */
  public async down(): Promise<void> {}
}
