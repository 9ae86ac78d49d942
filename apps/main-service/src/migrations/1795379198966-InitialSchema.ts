import { MigrationInterface, QueryRunner } from 'typeorm';

/** The configuration group, outbox and import batches. Binary collation: keys and filters match exactly. */

export class InitialSchema1795379198966 implements MigrationInterface {
  name = 'InitialSchema1795379198966';

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
      `CREATE TABLE \`configuration_data_dictionary\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`name\` varchar(255) NULL, \`sort\` int NOT NULL DEFAULT '0', \`data_dictionary_id\` varchar(32) NOT NULL, \`data_dictionary_type_code\` varchar(64) NOT NULL, \`data_dictionary_code\` varchar(64) NOT NULL, \`value\` varchar(1024) NULL, \`remark\` varchar(500) NULL, INDEX \`idx_data_dictionary_sort\` (\`tenant_id\`, \`delete_time\`, \`sort\`, \`created_time\`), UNIQUE INDEX \`uk_data_dictionary_key\` (\`tenant_id\`, \`data_dictionary_type_code\`, \`data_dictionary_code\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`data_dictionary_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`configuration_data_dictionary_map\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`name\` varchar(255) NULL, \`sort\` int NOT NULL DEFAULT '0', \`data_dictionary_map_id\` varchar(32) NOT NULL, \`data_dictionary_type_code\` varchar(64) NOT NULL, \`data_dictionary_code\` varchar(64) NOT NULL, \`key\` varchar(128) NOT NULL, \`value\` varchar(1024) NULL, INDEX \`idx_data_dictionary_map_sort\` (\`tenant_id\`, \`delete_time\`, \`sort\`, \`created_time\`), UNIQUE INDEX \`uk_data_dictionary_map_key\` (\`tenant_id\`, \`data_dictionary_type_code\`, \`data_dictionary_code\`, \`key\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`data_dictionary_map_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`configuration_data_dictionary_table\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`name\` varchar(255) NULL, \`sort\` int NOT NULL DEFAULT '0', \`data_dictionary_table_id\` varchar(32) NOT NULL, \`data_dictionary_type_code\` varchar(64) NOT NULL, \`data_dictionary_code\` varchar(64) NOT NULL, \`row\` varchar(64) NOT NULL, \`key\` varchar(128) NOT NULL, \`value\` varchar(1024) NULL, INDEX \`idx_data_dictionary_table_sort\` (\`tenant_id\`, \`delete_time\`, \`sort\`, \`created_time\`), UNIQUE INDEX \`uk_data_dictionary_table_key\` (\`tenant_id\`, \`data_dictionary_type_code\`, \`data_dictionary_code\`, \`row\`, \`key\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`data_dictionary_table_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`configuration_data_dictionary_type\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`name\` varchar(255) NULL, \`sort\` int NOT NULL DEFAULT '0', \`data_dictionary_type_id\` varchar(32) NOT NULL, \`data_dictionary_type_code\` varchar(64) NOT NULL, \`remark\` varchar(500) NULL, INDEX \`idx_data_dictionary_type_sort\` (\`tenant_id\`, \`delete_time\`, \`sort\`, \`created_time\`), UNIQUE INDEX \`uk_data_dictionary_type_key\` (\`tenant_id\`, \`data_dictionary_type_code\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`data_dictionary_type_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`configuration_translation\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`translation_id\` varchar(32) NOT NULL, \`language\` varchar(35) NOT NULL, \`namespace\` varchar(64) NOT NULL, \`key\` varchar(255) NOT NULL, \`value\` text NULL, \`draft\` tinyint NOT NULL DEFAULT 0, INDEX \`idx_translation_sort\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), UNIQUE INDEX \`uk_translation_key\` (\`tenant_id\`, \`language\`, \`namespace\`, \`key\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`translation_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`configuration_value_set\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`name\` varchar(255) NULL, \`sort\` int NOT NULL DEFAULT '0', \`value_set_id\` varchar(32) NOT NULL, \`value_set_type_code\` varchar(64) NOT NULL, \`value\` varchar(255) NOT NULL, \`remark\` varchar(500) NULL, INDEX \`idx_value_set_sort\` (\`tenant_id\`, \`delete_time\`, \`sort\`, \`created_time\`), UNIQUE INDEX \`uk_value_set_key\` (\`tenant_id\`, \`value_set_type_code\`, \`value\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`value_set_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`configuration_value_set_map\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`name\` varchar(255) NULL, \`sort\` int NOT NULL DEFAULT '0', \`value_set_map_id\` varchar(32) NOT NULL, \`value_set_type_code\` varchar(64) NOT NULL, \`key\` varchar(128) NOT NULL, \`value\` varchar(1024) NULL, INDEX \`idx_value_set_map_sort\` (\`tenant_id\`, \`delete_time\`, \`sort\`, \`created_time\`), UNIQUE INDEX \`uk_value_set_map_key\` (\`tenant_id\`, \`value_set_type_code\`, \`key\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`value_set_map_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`configuration_value_set_table\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`name\` varchar(255) NULL, \`sort\` int NOT NULL DEFAULT '0', \`value_set_table_id\` varchar(32) NOT NULL, \`value_set_type_code\` varchar(64) NOT NULL, \`row\` varchar(64) NOT NULL, \`key\` varchar(128) NOT NULL, \`value\` varchar(1024) NULL, INDEX \`idx_value_set_table_sort\` (\`tenant_id\`, \`delete_time\`, \`sort\`, \`created_time\`), UNIQUE INDEX \`uk_value_set_table_key\` (\`tenant_id\`, \`value_set_type_code\`, \`row\`, \`key\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`value_set_table_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`configuration_value_set_type\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`name\` varchar(255) NULL, \`sort\` int NOT NULL DEFAULT '0', \`value_set_type_id\` varchar(32) NOT NULL, \`value_set_type_code\` varchar(64) NOT NULL, \`remark\` varchar(500) NULL, INDEX \`idx_value_set_type_sort\` (\`tenant_id\`, \`delete_time\`, \`sort\`, \`created_time\`), UNIQUE INDEX \`uk_value_set_type_key\` (\`tenant_id\`, \`value_set_type_code\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`value_set_type_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`uk_value_set_type_key\` ON \`configuration_value_set_type\``);
    await queryRunner.query(`DROP INDEX \`idx_value_set_type_sort\` ON \`configuration_value_set_type\``);
    await queryRunner.query(`DROP TABLE \`configuration_value_set_type\``);
    await queryRunner.query(`DROP INDEX \`uk_value_set_table_key\` ON \`configuration_value_set_table\``);
    await queryRunner.query(`DROP INDEX \`idx_value_set_table_sort\` ON \`configuration_value_set_table\``);
    await queryRunner.query(`DROP TABLE \`configuration_value_set_table\``);
    await queryRunner.query(`DROP INDEX \`uk_value_set_map_key\` ON \`configuration_value_set_map\``);
    await queryRunner.query(`DROP INDEX \`idx_value_set_map_sort\` ON \`configuration_value_set_map\``);
    await queryRunner.query(`DROP TABLE \`configuration_value_set_map\``);
    await queryRunner.query(`DROP INDEX \`uk_value_set_key\` ON \`configuration_value_set\``);
    await queryRunner.query(`DROP INDEX \`idx_value_set_sort\` ON \`configuration_value_set\``);
    await queryRunner.query(`DROP TABLE \`configuration_value_set\``);
    await queryRunner.query(`DROP INDEX \`uk_translation_key\` ON \`configuration_translation\``);
    await queryRunner.query(`DROP INDEX \`idx_translation_sort\` ON \`configuration_translation\``);
    await queryRunner.query(`DROP TABLE \`configuration_translation\``);
    await queryRunner.query(`DROP INDEX \`uk_data_dictionary_type_key\` ON \`configuration_data_dictionary_type\``);
    await queryRunner.query(`DROP INDEX \`idx_data_dictionary_type_sort\` ON \`configuration_data_dictionary_type\``);
    await queryRunner.query(`DROP TABLE \`configuration_data_dictionary_type\``);
    await queryRunner.query(`DROP INDEX \`uk_data_dictionary_table_key\` ON \`configuration_data_dictionary_table\``);
    await queryRunner.query(`DROP INDEX \`idx_data_dictionary_table_sort\` ON \`configuration_data_dictionary_table\``);
    await queryRunner.query(`DROP TABLE \`configuration_data_dictionary_table\``);
    await queryRunner.query(`DROP INDEX \`uk_data_dictionary_map_key\` ON \`configuration_data_dictionary_map\``);
    await queryRunner.query(`DROP INDEX \`idx_data_dictionary_map_sort\` ON \`configuration_data_dictionary_map\``);
    await queryRunner.query(`DROP TABLE \`configuration_data_dictionary_map\``);
    await queryRunner.query(`DROP INDEX \`uk_data_dictionary_key\` ON \`configuration_data_dictionary\``);
    await queryRunner.query(`DROP INDEX \`idx_data_dictionary_sort\` ON \`configuration_data_dictionary\``);
    await queryRunner.query(`DROP TABLE \`configuration_data_dictionary\``);
    await queryRunner.query(`DROP INDEX \`idx_outbox_pending\` ON \`outbox_message\``);
    await queryRunner.query(`DROP TABLE \`outbox_message\``);
    await queryRunner.query(`DROP INDEX \`idx_import_batch_tenant\` ON \`import_batch\``);
    await queryRunner.query(`DROP TABLE \`import_batch\``);
  }
}
