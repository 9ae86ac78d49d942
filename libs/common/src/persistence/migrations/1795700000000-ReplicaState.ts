import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * State every replica shares: the write versions per (resource, tenant) that listCache and page totals check, and the windows of rate
 * limits counted in the database. Shared-library tables: one of COMMON_MIGRATIONS, which every service applies.
 */
export class ReplicaState1795700000000 implements MigrationInterface {
  name = 'ReplicaState1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`list_version\` (\`resource_path\` varchar(128) NOT NULL, \`tenant_id\` varchar(64) NOT NULL, \`version\` bigint NOT NULL, PRIMARY KEY (\`resource_path\`, \`tenant_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`throttle_window\` (\`throttle_key\` varchar(160) NOT NULL, \`hits\` int NOT NULL, \`window_end\` bigint NOT NULL, INDEX \`idx_throttle_window_end\` (\`window_end\`), PRIMARY KEY (\`throttle_key\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_throttle_window_end\` ON \`throttle_window\``);
    await queryRunner.query(`DROP TABLE \`throttle_window\``);
    await queryRunner.query(`DROP TABLE \`list_version\``);
  }
}
