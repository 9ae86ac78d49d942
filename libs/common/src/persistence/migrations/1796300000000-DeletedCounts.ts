import { MigrationInterface, QueryRunner } from 'typeorm';
import { DELETED_COUNT_TABLE, dropDeletedCountTriggers } from '../deleted-count-sql';
import { recordTables } from '../record-tables';

/**
 * The logically deleted records of every tenant per record table (the recycle bin's total). A service's own migration
 * gives the tables that have a recycle bin their triggers (createDeletedCountTriggers). Shared-library table: every
 * service registers this.
 */
export class DeletedCounts1796300000000 implements MigrationInterface {
  name = 'DeletedCounts1796300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`${DELETED_COUNT_TABLE}\` (\`table_name\` varchar(64) NOT NULL, \`tenant_id\` varchar(64) NOT NULL, \`slot\` int NOT NULL, \`deleted\` bigint NOT NULL, PRIMARY KEY (\`table_name\`, \`tenant_id\`, \`slot\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of await recordTables(queryRunner)) await dropDeletedCountTriggers(queryRunner, table);
    await queryRunner.query(`DROP TABLE \`${DELETED_COUNT_TABLE}\``);
  }
}
