import { MigrationInterface, QueryRunner } from 'typeorm';
import { createLiveCountTriggers, dropLiveCountTriggers, LIVE_COUNT_TABLE } from '../live-count-sql';
import { recordTables } from '../record-tables';

/**
 * Every record table's live rows and writes per tenant, kept by triggers (live-count-sql.ts) and started from the
 * rows present; the write counts replace the list_version counters that the services raised after each write. A
 * database migrated before has live-only triggers, replaced here. Shared-library table: every service registers this.
 */
export class WriteCounts1796000000000 implements MigrationInterface {
  name = 'WriteCounts1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`${LIVE_COUNT_TABLE}\` ADD \`writes\` bigint NOT NULL DEFAULT 0`);
    for (const table of await recordTables(queryRunner)) await createLiveCountTriggers(queryRunner, table);
    await queryRunner.query('DROP TABLE `list_version`');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE `list_version` (`resource_path` varchar(128) NOT NULL, `tenant_id` varchar(64) NOT NULL, `version` bigint NOT NULL, PRIMARY KEY (`resource_path`, `tenant_id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
    );
    // without triggers the services count rows (and keep no cached lists or totals); the write counts go
    for (const table of await recordTables(queryRunner)) await dropLiveCountTriggers(queryRunner, table);
    await queryRunner.query(`ALTER TABLE \`${LIVE_COUNT_TABLE}\` DROP COLUMN \`writes\``);
  }
}
