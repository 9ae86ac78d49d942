import { MigrationInterface, QueryRunner } from 'typeorm';

/** Leases of background work one replica at a time does (retention passes). Shared-library table: every service registers this. */
export class ReplicaLease1795900000000 implements MigrationInterface {
  name = 'ReplicaLease1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`replica_lease\` (\`name\` varchar(64) NOT NULL, \`holder\` varchar(128) NOT NULL, \`expires_time\` bigint NOT NULL, PRIMARY KEY (\`name\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`replica_lease\``);
  }
}
