import { MigrationInterface, QueryRunner } from 'typeorm';

/** Token-call counters shared by all replicas: per client address and per number, with the window end swept by. */
export class TokenThrottle1795490000000 implements MigrationInterface {
  name = 'TokenThrottle1795490000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`device_token_throttle\` (\`throttle_key\` varchar(128) NOT NULL, \`hits\` int NOT NULL, \`window_end\` bigint NOT NULL, INDEX \`idx_token_throttle_window_end\` (\`window_end\`), PRIMARY KEY (\`throttle_key\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_token_throttle_window_end\` ON \`device_token_throttle\``);
    await queryRunner.query(`DROP TABLE \`device_token_throttle\``);
  }
}
