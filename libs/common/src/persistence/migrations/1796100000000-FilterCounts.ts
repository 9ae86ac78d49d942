import { MigrationInterface, QueryRunner } from 'typeorm';
import { FILTER_COUNT_TABLE } from '../live-count-sql';

/**
 * The live records of every tenant per value of a record table's counted filter columns. The services' own
 * migrations give their tables' triggers the columns to count (createLiveCountTriggers). Shared-library table:
 * every service registers this.
 */
export class FilterCounts1796100000000 implements MigrationInterface {
  name = 'FilterCounts1796100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`${FILTER_COUNT_TABLE}\` (\`table_name\` varchar(64) NOT NULL, \`tenant_id\` varchar(64) NOT NULL, \`field\` varchar(64) NOT NULL, \`value\` varchar(255) NOT NULL, \`slot\` int NOT NULL, \`live\` bigint NOT NULL, PRIMARY KEY (\`table_name\`, \`tenant_id\`, \`field\`, \`value\`, \`slot\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`${FILTER_COUNT_TABLE}\``);
  }
}
