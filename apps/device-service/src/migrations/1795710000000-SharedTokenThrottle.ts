import { MigrationInterface, QueryRunner } from 'typeorm';

/** The token-call limits moved to the shared window counters (`throttle_window`): their own table goes. */
export class SharedTokenThrottle1795710000000 implements MigrationInterface {
  name = 'SharedTokenThrottle1795710000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`device_token_throttle\``);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`device_token_throttle\` (\`throttle_key\` varchar(128) NOT NULL, \`hits\` int NOT NULL, \`window_end\` bigint NOT NULL, INDEX \`idx_token_throttle_window_end\` (\`window_end\`), PRIMARY KEY (\`throttle_key\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }
}
