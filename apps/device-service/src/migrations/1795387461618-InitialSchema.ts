import { MigrationInterface, QueryRunner } from 'typeorm';

/** device-service's own database: the registry, binding lifecycles, outbox and import batches. Binary collation: numbers match exactly. */

export class InitialSchema1795387461618 implements MigrationInterface {
  name = 'InitialSchema1795387461618';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // exact-match keys: the database default (which TypeORM compares columns against) is binary too
    const [{ db }] = await queryRunner.query('SELECT DATABASE() AS db');
    await queryRunner.query(`ALTER DATABASE \`${db}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    await queryRunner.query(
      `CREATE TABLE \`import_batch\` (\`batch_id\` varchar(32) NOT NULL, \`tenant_id\` varchar(64) NOT NULL, \`topic\` varchar(128) NOT NULL, \`created_username\` varchar(128) NOT NULL, \`status\` varchar(16) NOT NULL, \`item_count\` int NOT NULL, \`applied_count\` int NOT NULL DEFAULT '0', \`rejected\` text NULL, \`created_time\` bigint NOT NULL, \`finished_time\` bigint NULL, INDEX \`idx_import_batch_tenant\` (\`tenant_id\`, \`created_time\`), PRIMARY KEY (\`batch_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`outbox_message\` (\`seq\` int NOT NULL AUTO_INCREMENT, \`topic\` varchar(128) NOT NULL, \`message_key\` varchar(64) NOT NULL, \`payload\` text NOT NULL, \`status\` varchar(16) NOT NULL, \`attempts\` int NOT NULL DEFAULT '0', \`next_attempt_time\` bigint NOT NULL DEFAULT '0', \`created_time\` bigint NOT NULL, \`sent_time\` bigint NULL, INDEX \`idx_outbox_pending\` (\`status\`, \`seq\`), PRIMARY KEY (\`seq\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`device_binding_lifecycle\` (\`tenant_id\` varchar(64) NOT NULL, \`binding_lifecycle_id\` varchar(32) NOT NULL, \`data_acquisition_device_no\` varchar(64) NOT NULL, \`data_acquisition_server_no\` varchar(64) NOT NULL, \`bind_time\` bigint NOT NULL, \`unbind_time\` bigint NULL, \`state\` varchar(16) NOT NULL, INDEX \`idx_binding_lifecycle_device\` (\`tenant_id\`, \`data_acquisition_device_no\`, \`unbind_time\`), INDEX \`idx_binding_lifecycle_server\` (\`tenant_id\`, \`data_acquisition_server_no\`, \`bind_time\`), PRIMARY KEY (\`tenant_id\`, \`binding_lifecycle_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`device_data_acquisition_device\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`data_acquisition_device_id\` varchar(32) NOT NULL, \`data_acquisition_device_no\` varchar(64) NOT NULL, \`name\` varchar(255) NULL, \`remark\` varchar(500) NULL, \`firmware_version\` varchar(64) NULL, \`model\` varchar(64) NULL, \`ip_address\` varchar(45) NULL, \`mac_address\` varchar(17) NULL, \`data_acquisition_server_no\` varchar(64) NULL, \`battery_level\` int NULL, \`last_seen_time\` bigint NULL, \`secret_hash\` varchar(255) NOT NULL, INDEX \`idx_data_acquisition_device_created\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), UNIQUE INDEX \`uk_data_acquisition_device_no\` (\`data_acquisition_device_no\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`data_acquisition_device_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`device_data_acquisition_server\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`data_acquisition_server_id\` varchar(32) NOT NULL, \`data_acquisition_server_no\` varchar(64) NOT NULL, \`name\` varchar(255) NULL, \`remark\` varchar(500) NULL, \`internal_ip\` varchar(45) NULL, \`internal_ip_time\` bigint NULL, \`secret_hash\` varchar(255) NOT NULL, INDEX \`idx_data_acquisition_server_created\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), UNIQUE INDEX \`uk_data_acquisition_server_no\` (\`data_acquisition_server_no\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`data_acquisition_server_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`uk_data_acquisition_server_no\` ON \`device_data_acquisition_server\``);
    await queryRunner.query(`DROP INDEX \`idx_data_acquisition_server_created\` ON \`device_data_acquisition_server\``);
    await queryRunner.query(`DROP TABLE \`device_data_acquisition_server\``);
    await queryRunner.query(`DROP INDEX \`uk_data_acquisition_device_no\` ON \`device_data_acquisition_device\``);
    await queryRunner.query(`DROP INDEX \`idx_data_acquisition_device_created\` ON \`device_data_acquisition_device\``);
    await queryRunner.query(`DROP TABLE \`device_data_acquisition_device\``);
    await queryRunner.query(`DROP INDEX \`idx_binding_lifecycle_server\` ON \`device_binding_lifecycle\``);
    await queryRunner.query(`DROP INDEX \`idx_binding_lifecycle_device\` ON \`device_binding_lifecycle\``);
    await queryRunner.query(`DROP TABLE \`device_binding_lifecycle\``);
    await queryRunner.query(`DROP INDEX \`idx_outbox_pending\` ON \`outbox_message\``);
    await queryRunner.query(`DROP TABLE \`outbox_message\``);
    await queryRunner.query(`DROP INDEX \`idx_import_batch_tenant\` ON \`import_batch\``);
    await queryRunner.query(`DROP TABLE \`import_batch\``);
  }
}
