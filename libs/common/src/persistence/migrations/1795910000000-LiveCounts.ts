import { MigrationInterface, QueryRunner } from 'typeorm';
import { createLiveCountTriggers, dropLiveCountTriggers, LIVE_COUNT_TABLE } from '../live-count-sql';

/**
 * The live records of every tenant per record table, kept by triggers (live-count-sql.ts) and started from the
 * rows present. Record tables are those with a tenant and a deletion time. Shared-library table: every service registers this.
 */
export class LiveCounts1795910000000 implements MigrationInterface {
  name = 'LiveCounts1795910000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`${LIVE_COUNT_TABLE}\` (\`table_name\` varchar(64) NOT NULL, \`tenant_id\` varchar(64) NOT NULL, \`slot\` int NOT NULL, \`live\` bigint NOT NULL, PRIMARY KEY (\`table_name\`, \`tenant_id\`, \`slot\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    for (const table of await recordTables(queryRunner)) await createLiveCountTriggers(queryRunner, table);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) await dropLiveCountTriggers(queryRunner, table);
    await queryRunner.query(`DROP TABLE \`${LIVE_COUNT_TABLE}\``);
  }
}

async function recordTables(queryRunner: QueryRunner): Promise<string[]> {
  const rows = (await queryRunner.query(
    `SELECT t.TABLE_NAME AS name FROM information_schema.COLUMNS t JOIN information_schema.COLUMNS d
       ON d.TABLE_SCHEMA = t.TABLE_SCHEMA AND d.TABLE_NAME = t.TABLE_NAME AND d.COLUMN_NAME = 'delete_time'
     WHERE t.TABLE_SCHEMA = DATABASE() AND t.COLUMN_NAME = 'tenant_id' ORDER BY t.TABLE_NAME`,
  )) as { name: string }[];
  return rows.map((row) => row.name);
}
