import { MigrationInterface, QueryRunner } from 'typeorm';
import { dropLiveCountTriggers, LIVE_COUNT_TABLE } from '../live-count-sql';
import { recordTables } from '../record-tables';

/**
 * The live records of every tenant per record table. Its triggers (and its write counts) come with WriteCounts,
 * which also replaces the live-only triggers a database migrated before that was given here. Shared-library
 * table: every service registers this.
 */
export class LiveCounts1795910000000 implements MigrationInterface {
  name = 'LiveCounts1795910000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`${LIVE_COUNT_TABLE}\` (\`table_name\` varchar(64) NOT NULL, \`tenant_id\` varchar(64) NOT NULL, \`slot\` int NOT NULL, \`live\` bigint NOT NULL, PRIMARY KEY (\`table_name\`, \`tenant_id\`, \`slot\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) await dropLiveCountTriggers(queryRunner, table);
    await queryRunner.query(`DROP TABLE \`${LIVE_COUNT_TABLE}\``);
  }
}
