import { MigrationInterface, QueryRunner } from 'typeorm';

/** The snapshot group: 8 tables, each indexed (tenant, live, filter, main time) for filter + range + newest-first pages. Binary collation as in InitialSchema. */

export class SnapshotSchema1795387638675 implements MigrationInterface {
  name = 'SnapshotSchema1795387638675';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`snapshot_data_acquisition_box_usage_snap\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`snap_time\` bigint NOT NULL, \`data_acquisition_box_usage_snap_id\` varchar(32) NOT NULL, \`box_no\` varchar(64) NOT NULL, \`data_acquisition_server_no\` varchar(64) NULL, \`username\` varchar(128) NULL, \`start_time\` bigint NOT NULL, \`end_time\` bigint NULL, \`remark\` varchar(500) NULL, INDEX \`idx_box_usage_username\` (\`tenant_id\`, \`delete_time\`, \`username\`, \`start_time\`), INDEX \`idx_box_usage_data_acquisition_server_no\` (\`tenant_id\`, \`delete_time\`, \`data_acquisition_server_no\`, \`start_time\`), INDEX \`idx_box_usage_box_no\` (\`tenant_id\`, \`delete_time\`, \`box_no\`, \`start_time\`), INDEX \`idx_box_usage_start_time\` (\`tenant_id\`, \`delete_time\`, \`start_time\`), PRIMARY KEY (\`tenant_id\`, \`data_acquisition_box_usage_snap_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`snapshot_data_acquisition_device_claim_snap\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`snap_time\` bigint NOT NULL, \`data_acquisition_device_claim_snap_id\` varchar(32) NOT NULL, \`data_acquisition_device_no\` varchar(64) NOT NULL, \`username\` varchar(128) NOT NULL, \`claim_time\` bigint NOT NULL, \`expected_return_time\` bigint NULL, \`remark\` varchar(500) NULL, INDEX \`idx_device_claim_username\` (\`tenant_id\`, \`delete_time\`, \`username\`, \`claim_time\`), INDEX \`idx_device_claim_data_acquisition_device_no\` (\`tenant_id\`, \`delete_time\`, \`data_acquisition_device_no\`, \`claim_time\`), INDEX \`idx_device_claim_claim_time\` (\`tenant_id\`, \`delete_time\`, \`claim_time\`), PRIMARY KEY (\`tenant_id\`, \`data_acquisition_device_claim_snap_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`snapshot_data_acquisition_device_give_back_snap\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`snap_time\` bigint NOT NULL, \`data_acquisition_device_give_back_snap_id\` varchar(32) NOT NULL, \`data_acquisition_device_no\` varchar(64) NOT NULL, \`username\` varchar(128) NOT NULL, \`give_back_time\` bigint NOT NULL, \`condition\` varchar(32) NOT NULL, \`remark\` varchar(500) NULL, INDEX \`idx_device_give_back_condition\` (\`tenant_id\`, \`delete_time\`, \`condition\`, \`give_back_time\`), INDEX \`idx_device_give_back_username\` (\`tenant_id\`, \`delete_time\`, \`username\`, \`give_back_time\`), INDEX \`idx_device_give_back_data_acquisition_device_no\` (\`tenant_id\`, \`delete_time\`, \`data_acquisition_device_no\`, \`give_back_time\`), INDEX \`idx_device_give_back_give_back_time\` (\`tenant_id\`, \`delete_time\`, \`give_back_time\`), PRIMARY KEY (\`tenant_id\`, \`data_acquisition_device_give_back_snap_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`snapshot_data_sync_snap\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`snap_time\` bigint NOT NULL, \`data_sync_snap_id\` varchar(32) NOT NULL, \`data_acquisition_server_no\` varchar(64) NOT NULL, \`sync_type\` varchar(32) NOT NULL, \`start_time\` bigint NOT NULL, \`end_time\` bigint NULL, \`record_count\` int NULL, \`status\` varchar(32) NOT NULL, \`error_message\` varchar(2000) NULL, INDEX \`idx_data_sync_status\` (\`tenant_id\`, \`delete_time\`, \`status\`, \`start_time\`), INDEX \`idx_data_sync_sync_type\` (\`tenant_id\`, \`delete_time\`, \`sync_type\`, \`start_time\`), INDEX \`idx_data_sync_data_acquisition_server_no\` (\`tenant_id\`, \`delete_time\`, \`data_acquisition_server_no\`, \`start_time\`), INDEX \`idx_data_sync_start_time\` (\`tenant_id\`, \`delete_time\`, \`start_time\`), PRIMARY KEY (\`tenant_id\`, \`data_sync_snap_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`snapshot_device_position_snap\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`snap_time\` bigint NOT NULL, \`device_position_snap_id\` varchar(32) NOT NULL, \`device_no\` varchar(64) NOT NULL, \`device_type\` varchar(32) NOT NULL, \`longitude\` double NOT NULL, \`latitude\` double NOT NULL, \`altitude\` double NULL, \`accuracy\` double NULL, INDEX \`idx_device_position_device_type\` (\`tenant_id\`, \`delete_time\`, \`device_type\`, \`snap_time\`), INDEX \`idx_device_position_device_no\` (\`tenant_id\`, \`delete_time\`, \`device_no\`, \`snap_time\`), INDEX \`idx_device_position_snap_time\` (\`tenant_id\`, \`delete_time\`, \`snap_time\`), PRIMARY KEY (\`tenant_id\`, \`device_position_snap_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`snapshot_device_state_snap\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`snap_time\` bigint NOT NULL, \`device_state_snap_id\` varchar(32) NOT NULL, \`device_no\` varchar(64) NOT NULL, \`device_type\` varchar(32) NOT NULL, \`state\` varchar(32) NOT NULL, \`battery_level\` int NULL, \`signal_strength\` int NULL, \`detail\` varchar(2000) NULL, INDEX \`idx_device_state_state\` (\`tenant_id\`, \`delete_time\`, \`state\`, \`snap_time\`), INDEX \`idx_device_state_device_type\` (\`tenant_id\`, \`delete_time\`, \`device_type\`, \`snap_time\`), INDEX \`idx_device_state_device_no\` (\`tenant_id\`, \`delete_time\`, \`device_no\`, \`snap_time\`), INDEX \`idx_device_state_snap_time\` (\`tenant_id\`, \`delete_time\`, \`snap_time\`), PRIMARY KEY (\`tenant_id\`, \`device_state_snap_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`snapshot_fingerprint_scanner_usage_snap\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`snap_time\` bigint NOT NULL, \`fingerprint_scanner_usage_snap_id\` varchar(32) NOT NULL, \`fingerprint_scanner_no\` varchar(64) NOT NULL, \`data_acquisition_device_no\` varchar(64) NULL, \`username\` varchar(128) NULL, \`result\` varchar(32) NOT NULL, INDEX \`idx_fingerprint_usage_result\` (\`tenant_id\`, \`delete_time\`, \`result\`, \`snap_time\`), INDEX \`idx_fingerprint_usage_username\` (\`tenant_id\`, \`delete_time\`, \`username\`, \`snap_time\`), INDEX \`idx_fingerprint_usage_data_acquisition_device_no\` (\`tenant_id\`, \`delete_time\`, \`data_acquisition_device_no\`, \`snap_time\`), INDEX \`idx_fingerprint_usage_fingerprint_scanner_no\` (\`tenant_id\`, \`delete_time\`, \`fingerprint_scanner_no\`, \`snap_time\`), INDEX \`idx_fingerprint_usage_snap_time\` (\`tenant_id\`, \`delete_time\`, \`snap_time\`), PRIMARY KEY (\`tenant_id\`, \`fingerprint_scanner_usage_snap_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`snapshot_nfc_card_usage_snap\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`snap_time\` bigint NOT NULL, \`nfc_card_usage_snap_id\` varchar(32) NOT NULL, \`nfc_card_no\` varchar(64) NOT NULL, \`data_acquisition_device_no\` varchar(64) NULL, \`username\` varchar(128) NULL, \`result\` varchar(32) NOT NULL, INDEX \`idx_nfc_usage_result\` (\`tenant_id\`, \`delete_time\`, \`result\`, \`snap_time\`), INDEX \`idx_nfc_usage_username\` (\`tenant_id\`, \`delete_time\`, \`username\`, \`snap_time\`), INDEX \`idx_nfc_usage_data_acquisition_device_no\` (\`tenant_id\`, \`delete_time\`, \`data_acquisition_device_no\`, \`snap_time\`), INDEX \`idx_nfc_usage_nfc_card_no\` (\`tenant_id\`, \`delete_time\`, \`nfc_card_no\`, \`snap_time\`), INDEX \`idx_nfc_usage_snap_time\` (\`tenant_id\`, \`delete_time\`, \`snap_time\`), PRIMARY KEY (\`tenant_id\`, \`nfc_card_usage_snap_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(`ALTER TABLE \`import_batch\` CHANGE \`rejected\` \`rejected\` text NULL`);
    await queryRunner.query(`ALTER TABLE \`import_batch\` CHANGE \`finished_time\` \`finished_time\` bigint NULL`);
    await queryRunner.query(`ALTER TABLE \`outbox_message\` CHANGE \`sent_time\` \`sent_time\` bigint NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary\` CHANGE \`name\` \`name\` varchar(255) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary\` CHANGE \`value\` \`value\` varchar(1024) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary\` CHANGE \`remark\` \`remark\` varchar(500) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary_map\` CHANGE \`name\` \`name\` varchar(255) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary_map\` CHANGE \`value\` \`value\` varchar(1024) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary_table\` CHANGE \`name\` \`name\` varchar(255) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary_table\` CHANGE \`value\` \`value\` varchar(1024) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary_type\` CHANGE \`name\` \`name\` varchar(255) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary_type\` CHANGE \`remark\` \`remark\` varchar(500) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_translation\` CHANGE \`value\` \`value\` text NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set\` CHANGE \`name\` \`name\` varchar(255) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set\` CHANGE \`remark\` \`remark\` varchar(500) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_map\` CHANGE \`name\` \`name\` varchar(255) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_map\` CHANGE \`value\` \`value\` varchar(1024) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_table\` CHANGE \`name\` \`name\` varchar(255) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_table\` CHANGE \`value\` \`value\` varchar(1024) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_type\` CHANGE \`name\` \`name\` varchar(255) NULL`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_type\` CHANGE \`remark\` \`remark\` varchar(500) NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_type\` CHANGE \`remark\` \`remark\` varchar(500) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_type\` CHANGE \`name\` \`name\` varchar(255) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_table\` CHANGE \`value\` \`value\` varchar(1024) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_table\` CHANGE \`name\` \`name\` varchar(255) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_map\` CHANGE \`value\` \`value\` varchar(1024) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set_map\` CHANGE \`name\` \`name\` varchar(255) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set\` CHANGE \`remark\` \`remark\` varchar(500) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`configuration_value_set\` CHANGE \`name\` \`name\` varchar(255) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`configuration_translation\` CHANGE \`value\` \`value\` text NULL DEFAULT 'NULL'`);
    await queryRunner.query(
      `ALTER TABLE \`configuration_data_dictionary_type\` CHANGE \`remark\` \`remark\` varchar(500) NULL DEFAULT 'NULL'`,
    );
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary_type\` CHANGE \`name\` \`name\` varchar(255) NULL DEFAULT 'NULL'`);
    await queryRunner.query(
      `ALTER TABLE \`configuration_data_dictionary_table\` CHANGE \`value\` \`value\` varchar(1024) NULL DEFAULT 'NULL'`,
    );
    await queryRunner.query(
      `ALTER TABLE \`configuration_data_dictionary_table\` CHANGE \`name\` \`name\` varchar(255) NULL DEFAULT 'NULL'`,
    );
    await queryRunner.query(
      `ALTER TABLE \`configuration_data_dictionary_map\` CHANGE \`value\` \`value\` varchar(1024) NULL DEFAULT 'NULL'`,
    );
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary_map\` CHANGE \`name\` \`name\` varchar(255) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary\` CHANGE \`remark\` \`remark\` varchar(500) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary\` CHANGE \`value\` \`value\` varchar(1024) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`configuration_data_dictionary\` CHANGE \`name\` \`name\` varchar(255) NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`outbox_message\` CHANGE \`sent_time\` \`sent_time\` bigint NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`import_batch\` CHANGE \`finished_time\` \`finished_time\` bigint NULL DEFAULT 'NULL'`);
    await queryRunner.query(`ALTER TABLE \`import_batch\` CHANGE \`rejected\` \`rejected\` text NULL DEFAULT 'NULL'`);
    await queryRunner.query(`DROP INDEX \`idx_nfc_usage_snap_time\` ON \`snapshot_nfc_card_usage_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_nfc_usage_nfc_card_no\` ON \`snapshot_nfc_card_usage_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_nfc_usage_data_acquisition_device_no\` ON \`snapshot_nfc_card_usage_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_nfc_usage_username\` ON \`snapshot_nfc_card_usage_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_nfc_usage_result\` ON \`snapshot_nfc_card_usage_snap\``);
    await queryRunner.query(`DROP TABLE \`snapshot_nfc_card_usage_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_fingerprint_usage_snap_time\` ON \`snapshot_fingerprint_scanner_usage_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_fingerprint_usage_fingerprint_scanner_no\` ON \`snapshot_fingerprint_scanner_usage_snap\``);
    await queryRunner.query(
      `DROP INDEX \`idx_fingerprint_usage_data_acquisition_device_no\` ON \`snapshot_fingerprint_scanner_usage_snap\``,
    );
    await queryRunner.query(`DROP INDEX \`idx_fingerprint_usage_username\` ON \`snapshot_fingerprint_scanner_usage_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_fingerprint_usage_result\` ON \`snapshot_fingerprint_scanner_usage_snap\``);
    await queryRunner.query(`DROP TABLE \`snapshot_fingerprint_scanner_usage_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_device_state_snap_time\` ON \`snapshot_device_state_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_device_state_device_no\` ON \`snapshot_device_state_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_device_state_device_type\` ON \`snapshot_device_state_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_device_state_state\` ON \`snapshot_device_state_snap\``);
    await queryRunner.query(`DROP TABLE \`snapshot_device_state_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_device_position_snap_time\` ON \`snapshot_device_position_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_device_position_device_no\` ON \`snapshot_device_position_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_device_position_device_type\` ON \`snapshot_device_position_snap\``);
    await queryRunner.query(`DROP TABLE \`snapshot_device_position_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_data_sync_start_time\` ON \`snapshot_data_sync_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_data_sync_data_acquisition_server_no\` ON \`snapshot_data_sync_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_data_sync_sync_type\` ON \`snapshot_data_sync_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_data_sync_status\` ON \`snapshot_data_sync_snap\``);
    await queryRunner.query(`DROP TABLE \`snapshot_data_sync_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_device_give_back_give_back_time\` ON \`snapshot_data_acquisition_device_give_back_snap\``);
    await queryRunner.query(
      `DROP INDEX \`idx_device_give_back_data_acquisition_device_no\` ON \`snapshot_data_acquisition_device_give_back_snap\``,
    );
    await queryRunner.query(`DROP INDEX \`idx_device_give_back_username\` ON \`snapshot_data_acquisition_device_give_back_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_device_give_back_condition\` ON \`snapshot_data_acquisition_device_give_back_snap\``);
    await queryRunner.query(`DROP TABLE \`snapshot_data_acquisition_device_give_back_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_device_claim_claim_time\` ON \`snapshot_data_acquisition_device_claim_snap\``);
    await queryRunner.query(
      `DROP INDEX \`idx_device_claim_data_acquisition_device_no\` ON \`snapshot_data_acquisition_device_claim_snap\``,
    );
    await queryRunner.query(`DROP INDEX \`idx_device_claim_username\` ON \`snapshot_data_acquisition_device_claim_snap\``);
    await queryRunner.query(`DROP TABLE \`snapshot_data_acquisition_device_claim_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_box_usage_start_time\` ON \`snapshot_data_acquisition_box_usage_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_box_usage_box_no\` ON \`snapshot_data_acquisition_box_usage_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_box_usage_data_acquisition_server_no\` ON \`snapshot_data_acquisition_box_usage_snap\``);
    await queryRunner.query(`DROP INDEX \`idx_box_usage_username\` ON \`snapshot_data_acquisition_box_usage_snap\``);
    await queryRunner.query(`DROP TABLE \`snapshot_data_acquisition_box_usage_snap\``);
  }
}
