import { MigrationInterface, QueryRunner } from 'typeorm';

/** The message group: 14 tables, each indexed (tenant, live, filter, main time or createdTime) for filter + range + newest-first pages; unique keys uk_* (tenant, key, delete_time). Binary collation as in InitialSchema. */

export class MessageSchema1795451975519 implements MigrationInterface {
  name = 'MessageSchema1795451975519';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`message_email\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`business_type\` varchar(64) NULL, \`business_id\` varchar(64) NULL, \`email_id\` varchar(32) NOT NULL, \`email_config_id\` varchar(32) NULL, \`email_template_id\` varchar(32) NULL, \`from_address\` varchar(254) NOT NULL, \`to_addresses\` text NOT NULL, \`cc_addresses\` text NULL, \`bcc_addresses\` text NULL, \`subject\` varchar(255) NOT NULL, \`content\` text NOT NULL, \`status\` varchar(32) NOT NULL, \`send_time\` bigint NOT NULL, \`error_message\` varchar(2000) NULL, \`retry_count\` int NOT NULL DEFAULT '0', INDEX \`idx_email_status\` (\`tenant_id\`, \`delete_time\`, \`status\`, \`send_time\`), INDEX \`idx_email_from_address\` (\`tenant_id\`, \`delete_time\`, \`from_address\`, \`send_time\`), INDEX \`idx_email_email_template_id\` (\`tenant_id\`, \`delete_time\`, \`email_template_id\`, \`send_time\`), INDEX \`idx_email_email_config_id\` (\`tenant_id\`, \`delete_time\`, \`email_config_id\`, \`send_time\`), INDEX \`idx_email_business_type\` (\`tenant_id\`, \`delete_time\`, \`business_type\`, \`send_time\`), INDEX \`idx_email_business_id\` (\`tenant_id\`, \`delete_time\`, \`business_id\`, \`send_time\`), INDEX \`idx_email_send_time\` (\`tenant_id\`, \`delete_time\`, \`send_time\`), PRIMARY KEY (\`tenant_id\`, \`email_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_email_config\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`name\` varchar(255) NOT NULL, \`enabled\` tinyint NOT NULL DEFAULT 1, \`remark\` varchar(500) NULL, \`email_config_id\` varchar(32) NOT NULL, \`host\` varchar(255) NOT NULL, \`port\` int NOT NULL, \`secure\` tinyint NOT NULL DEFAULT 0, \`username\` varchar(255) NULL, \`password\` varchar(255) NULL, \`from_address\` varchar(254) NOT NULL, \`from_name\` varchar(255) NULL, INDEX \`idx_email_config_enabled\` (\`tenant_id\`, \`delete_time\`, \`enabled\`, \`created_time\`), INDEX \`idx_email_config_from_address\` (\`tenant_id\`, \`delete_time\`, \`from_address\`, \`created_time\`), INDEX \`idx_email_config_host\` (\`tenant_id\`, \`delete_time\`, \`host\`, \`created_time\`), INDEX \`idx_email_config_name\` (\`tenant_id\`, \`delete_time\`, \`name\`, \`created_time\`), INDEX \`idx_email_config_created_time\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), PRIMARY KEY (\`tenant_id\`, \`email_config_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_email_template\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`code\` varchar(64) NOT NULL, \`name\` varchar(255) NOT NULL, \`enabled\` tinyint NOT NULL DEFAULT 1, \`remark\` varchar(500) NULL, \`email_template_id\` varchar(32) NOT NULL, \`subject\` varchar(255) NOT NULL, \`content\` text NOT NULL, \`content_type\` varchar(32) NOT NULL, \`language\` varchar(35) NULL, INDEX \`idx_email_template_enabled\` (\`tenant_id\`, \`delete_time\`, \`enabled\`, \`created_time\`), INDEX \`idx_email_template_language\` (\`tenant_id\`, \`delete_time\`, \`language\`, \`created_time\`), INDEX \`idx_email_template_content_type\` (\`tenant_id\`, \`delete_time\`, \`content_type\`, \`created_time\`), INDEX \`idx_email_template_name\` (\`tenant_id\`, \`delete_time\`, \`name\`, \`created_time\`), INDEX \`idx_email_template_created_time\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), UNIQUE INDEX \`uk_email_template_key\` (\`tenant_id\`, \`code\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`email_template_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_email_template_email_config\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`sort\` int NOT NULL DEFAULT '0', \`email_template_email_config_id\` varchar(32) NOT NULL, \`email_template_id\` varchar(32) NOT NULL, \`email_config_id\` varchar(32) NOT NULL, INDEX \`idx_email_tpl_cfg_config\` (\`tenant_id\`, \`delete_time\`, \`email_config_id\`, \`created_time\`), INDEX \`idx_email_tpl_cfg_template\` (\`tenant_id\`, \`delete_time\`, \`email_template_id\`, \`created_time\`), INDEX \`idx_email_tpl_cfg_created_time\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), UNIQUE INDEX \`uk_email_tpl_cfg_key\` (\`tenant_id\`, \`email_template_id\`, \`email_config_id\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`email_template_email_config_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_notification\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`business_type\` varchar(64) NULL, \`business_id\` varchar(64) NULL, \`notification_id\` varchar(32) NOT NULL, \`notification_template_id\` varchar(32) NULL, \`notification_config_id\` varchar(32) NULL, \`title\` varchar(255) NOT NULL, \`content\` text NOT NULL, \`level\` varchar(32) NOT NULL, \`target_type\` varchar(32) NOT NULL, \`status\` varchar(32) NOT NULL, \`publish_time\` bigint NOT NULL, INDEX \`idx_notification_status\` (\`tenant_id\`, \`delete_time\`, \`status\`, \`publish_time\`), INDEX \`idx_notification_target_type\` (\`tenant_id\`, \`delete_time\`, \`target_type\`, \`publish_time\`), INDEX \`idx_notification_level\` (\`tenant_id\`, \`delete_time\`, \`level\`, \`publish_time\`), INDEX \`idx_notification_config_id\` (\`tenant_id\`, \`delete_time\`, \`notification_config_id\`, \`publish_time\`), INDEX \`idx_notification_template_id\` (\`tenant_id\`, \`delete_time\`, \`notification_template_id\`, \`publish_time\`), INDEX \`idx_notification_business_type\` (\`tenant_id\`, \`delete_time\`, \`business_type\`, \`publish_time\`), INDEX \`idx_notification_business_id\` (\`tenant_id\`, \`delete_time\`, \`business_id\`, \`publish_time\`), INDEX \`idx_notification_publish_time\` (\`tenant_id\`, \`delete_time\`, \`publish_time\`), PRIMARY KEY (\`tenant_id\`, \`notification_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_notification_config\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`name\` varchar(255) NOT NULL, \`enabled\` tinyint NOT NULL DEFAULT 1, \`remark\` varchar(500) NULL, \`notification_config_id\` varchar(32) NOT NULL, \`channel\` varchar(32) NOT NULL, INDEX \`idx_notification_config_enabled\` (\`tenant_id\`, \`delete_time\`, \`enabled\`, \`created_time\`), INDEX \`idx_notification_config_channel\` (\`tenant_id\`, \`delete_time\`, \`channel\`, \`created_time\`), INDEX \`idx_notification_config_name\` (\`tenant_id\`, \`delete_time\`, \`name\`, \`created_time\`), INDEX \`idx_notification_config_created_time\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), PRIMARY KEY (\`tenant_id\`, \`notification_config_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_notification_template\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`code\` varchar(64) NOT NULL, \`name\` varchar(255) NOT NULL, \`enabled\` tinyint NOT NULL DEFAULT 1, \`remark\` varchar(500) NULL, \`notification_template_id\` varchar(32) NOT NULL, \`title\` varchar(255) NOT NULL, \`content\` text NOT NULL, \`level\` varchar(32) NOT NULL, INDEX \`idx_notification_template_enabled\` (\`tenant_id\`, \`delete_time\`, \`enabled\`, \`created_time\`), INDEX \`idx_notification_template_level\` (\`tenant_id\`, \`delete_time\`, \`level\`, \`created_time\`), INDEX \`idx_notification_template_name\` (\`tenant_id\`, \`delete_time\`, \`name\`, \`created_time\`), INDEX \`idx_notification_template_created_time\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), UNIQUE INDEX \`uk_notification_template_key\` (\`tenant_id\`, \`code\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`notification_template_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_notification_template_notification_config\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`sort\` int NOT NULL DEFAULT '0', \`notification_template_notification_config_id\` varchar(32) NOT NULL, \`notification_template_id\` varchar(32) NOT NULL, \`notification_config_id\` varchar(32) NOT NULL, INDEX \`idx_notification_tpl_cfg_config\` (\`tenant_id\`, \`delete_time\`, \`notification_config_id\`, \`created_time\`), INDEX \`idx_notification_tpl_cfg_template\` (\`tenant_id\`, \`delete_time\`, \`notification_template_id\`, \`created_time\`), INDEX \`idx_notification_tpl_cfg_created_time\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), UNIQUE INDEX \`uk_notification_tpl_cfg_key\` (\`tenant_id\`, \`notification_template_id\`, \`notification_config_id\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`notification_template_notification_config_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_notification_user\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`notification_user_id\` varchar(32) NOT NULL, \`notification_id\` varchar(32) NOT NULL, \`username\` varchar(128) NOT NULL, \`is_read\` tinyint NOT NULL DEFAULT 0, \`read_time\` bigint NULL, INDEX \`idx_notification_user_read\` (\`tenant_id\`, \`delete_time\`, \`is_read\`, \`read_time\`), INDEX \`idx_notification_user_notification_id\` (\`tenant_id\`, \`delete_time\`, \`notification_id\`, \`read_time\`), INDEX \`idx_notification_user_username\` (\`tenant_id\`, \`delete_time\`, \`username\`, \`read_time\`), INDEX \`idx_notification_user_read_time\` (\`tenant_id\`, \`delete_time\`, \`read_time\`), UNIQUE INDEX \`uk_notification_user_key\` (\`tenant_id\`, \`notification_id\`, \`username\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`notification_user_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_sms\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`business_type\` varchar(64) NULL, \`business_id\` varchar(64) NULL, \`sms_id\` varchar(32) NOT NULL, \`sms_config_id\` varchar(32) NULL, \`sms_template_id\` varchar(32) NULL, \`phone_numbers\` text NOT NULL, \`content\` varchar(1000) NOT NULL, \`params\` varchar(2000) NULL, \`status\` varchar(32) NOT NULL, \`send_time\` bigint NOT NULL, \`error_message\` varchar(2000) NULL, \`provider_message_id\` varchar(128) NULL, \`retry_count\` int NOT NULL DEFAULT '0', INDEX \`idx_sms_status\` (\`tenant_id\`, \`delete_time\`, \`status\`, \`send_time\`), INDEX \`idx_sms_provider_message_id\` (\`tenant_id\`, \`delete_time\`, \`provider_message_id\`, \`send_time\`), INDEX \`idx_sms_sms_template_id\` (\`tenant_id\`, \`delete_time\`, \`sms_template_id\`, \`send_time\`), INDEX \`idx_sms_sms_config_id\` (\`tenant_id\`, \`delete_time\`, \`sms_config_id\`, \`send_time\`), INDEX \`idx_sms_business_type\` (\`tenant_id\`, \`delete_time\`, \`business_type\`, \`send_time\`), INDEX \`idx_sms_business_id\` (\`tenant_id\`, \`delete_time\`, \`business_id\`, \`send_time\`), INDEX \`idx_sms_send_time\` (\`tenant_id\`, \`delete_time\`, \`send_time\`), PRIMARY KEY (\`tenant_id\`, \`sms_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_sms_config\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`name\` varchar(255) NOT NULL, \`enabled\` tinyint NOT NULL DEFAULT 1, \`remark\` varchar(500) NULL, \`sms_config_id\` varchar(32) NOT NULL, \`provider\` varchar(64) NOT NULL, \`endpoint\` varchar(500) NULL, \`region\` varchar(64) NULL, \`access_key_id\` varchar(128) NOT NULL, \`access_key_secret\` varchar(255) NOT NULL, \`sign_name\` varchar(64) NULL, INDEX \`idx_sms_config_enabled\` (\`tenant_id\`, \`delete_time\`, \`enabled\`, \`created_time\`), INDEX \`idx_sms_config_access_key_id\` (\`tenant_id\`, \`delete_time\`, \`access_key_id\`, \`created_time\`), INDEX \`idx_sms_config_provider\` (\`tenant_id\`, \`delete_time\`, \`provider\`, \`created_time\`), INDEX \`idx_sms_config_name\` (\`tenant_id\`, \`delete_time\`, \`name\`, \`created_time\`), INDEX \`idx_sms_config_created_time\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), PRIMARY KEY (\`tenant_id\`, \`sms_config_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_sms_package\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`sms_package_id\` varchar(32) NOT NULL, \`name\` varchar(255) NOT NULL, \`total_count\` int NOT NULL, \`used_count\` int NOT NULL DEFAULT '0', \`expire_time\` bigint NULL, \`status\` varchar(32) NOT NULL, \`remark\` varchar(500) NULL, INDEX \`idx_sms_package_status\` (\`tenant_id\`, \`delete_time\`, \`status\`, \`created_time\`), INDEX \`idx_sms_package_name\` (\`tenant_id\`, \`delete_time\`, \`name\`, \`created_time\`), INDEX \`idx_sms_package_created_time\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), PRIMARY KEY (\`tenant_id\`, \`sms_package_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_sms_template\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`code\` varchar(64) NOT NULL, \`name\` varchar(255) NOT NULL, \`enabled\` tinyint NOT NULL DEFAULT 1, \`remark\` varchar(500) NULL, \`sms_template_id\` varchar(32) NOT NULL, \`content\` varchar(1000) NOT NULL, \`provider_template_code\` varchar(64) NULL, INDEX \`idx_sms_template_enabled\` (\`tenant_id\`, \`delete_time\`, \`enabled\`, \`created_time\`), INDEX \`idx_sms_template_provider_template_code\` (\`tenant_id\`, \`delete_time\`, \`provider_template_code\`, \`created_time\`), INDEX \`idx_sms_template_name\` (\`tenant_id\`, \`delete_time\`, \`name\`, \`created_time\`), INDEX \`idx_sms_template_created_time\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), UNIQUE INDEX \`uk_sms_template_key\` (\`tenant_id\`, \`code\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`sms_template_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      `CREATE TABLE \`message_sms_template_sms_config\` (\`tenant_id\` varchar(64) NOT NULL, \`revision\` int NOT NULL, \`created_username\` varchar(128) NOT NULL, \`created_time\` bigint NOT NULL, \`last_modified_username\` varchar(128) NOT NULL, \`last_modified_time\` bigint NOT NULL, \`delete_time\` bigint NOT NULL DEFAULT '0', \`sort\` int NOT NULL DEFAULT '0', \`sms_template_sms_config_id\` varchar(32) NOT NULL, \`sms_template_id\` varchar(32) NOT NULL, \`sms_config_id\` varchar(32) NOT NULL, INDEX \`idx_sms_tpl_cfg_config\` (\`tenant_id\`, \`delete_time\`, \`sms_config_id\`, \`created_time\`), INDEX \`idx_sms_tpl_cfg_template\` (\`tenant_id\`, \`delete_time\`, \`sms_template_id\`, \`created_time\`), INDEX \`idx_sms_tpl_cfg_created_time\` (\`tenant_id\`, \`delete_time\`, \`created_time\`), UNIQUE INDEX \`uk_sms_tpl_cfg_key\` (\`tenant_id\`, \`sms_template_id\`, \`sms_config_id\`, \`delete_time\`), PRIMARY KEY (\`tenant_id\`, \`sms_template_sms_config_id\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`uk_sms_tpl_cfg_key\` ON \`message_sms_template_sms_config\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_tpl_cfg_created_time\` ON \`message_sms_template_sms_config\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_tpl_cfg_template\` ON \`message_sms_template_sms_config\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_tpl_cfg_config\` ON \`message_sms_template_sms_config\``);
    await queryRunner.query(`DROP TABLE \`message_sms_template_sms_config\``);
    await queryRunner.query(`DROP INDEX \`uk_sms_template_key\` ON \`message_sms_template\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_template_created_time\` ON \`message_sms_template\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_template_name\` ON \`message_sms_template\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_template_provider_template_code\` ON \`message_sms_template\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_template_enabled\` ON \`message_sms_template\``);
    await queryRunner.query(`DROP TABLE \`message_sms_template\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_package_created_time\` ON \`message_sms_package\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_package_name\` ON \`message_sms_package\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_package_status\` ON \`message_sms_package\``);
    await queryRunner.query(`DROP TABLE \`message_sms_package\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_config_created_time\` ON \`message_sms_config\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_config_name\` ON \`message_sms_config\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_config_provider\` ON \`message_sms_config\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_config_access_key_id\` ON \`message_sms_config\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_config_enabled\` ON \`message_sms_config\``);
    await queryRunner.query(`DROP TABLE \`message_sms_config\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_send_time\` ON \`message_sms\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_business_id\` ON \`message_sms\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_business_type\` ON \`message_sms\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_sms_config_id\` ON \`message_sms\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_sms_template_id\` ON \`message_sms\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_provider_message_id\` ON \`message_sms\``);
    await queryRunner.query(`DROP INDEX \`idx_sms_status\` ON \`message_sms\``);
    await queryRunner.query(`DROP TABLE \`message_sms\``);
    await queryRunner.query(`DROP INDEX \`uk_notification_user_key\` ON \`message_notification_user\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_user_read_time\` ON \`message_notification_user\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_user_username\` ON \`message_notification_user\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_user_notification_id\` ON \`message_notification_user\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_user_read\` ON \`message_notification_user\``);
    await queryRunner.query(`DROP TABLE \`message_notification_user\``);
    await queryRunner.query(`DROP INDEX \`uk_notification_tpl_cfg_key\` ON \`message_notification_template_notification_config\``);
    await queryRunner.query(
      `DROP INDEX \`idx_notification_tpl_cfg_created_time\` ON \`message_notification_template_notification_config\``,
    );
    await queryRunner.query(`DROP INDEX \`idx_notification_tpl_cfg_template\` ON \`message_notification_template_notification_config\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_tpl_cfg_config\` ON \`message_notification_template_notification_config\``);
    await queryRunner.query(`DROP TABLE \`message_notification_template_notification_config\``);
    await queryRunner.query(`DROP INDEX \`uk_notification_template_key\` ON \`message_notification_template\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_template_created_time\` ON \`message_notification_template\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_template_name\` ON \`message_notification_template\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_template_level\` ON \`message_notification_template\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_template_enabled\` ON \`message_notification_template\``);
    await queryRunner.query(`DROP TABLE \`message_notification_template\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_config_created_time\` ON \`message_notification_config\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_config_name\` ON \`message_notification_config\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_config_channel\` ON \`message_notification_config\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_config_enabled\` ON \`message_notification_config\``);
    await queryRunner.query(`DROP TABLE \`message_notification_config\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_publish_time\` ON \`message_notification\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_business_id\` ON \`message_notification\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_business_type\` ON \`message_notification\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_template_id\` ON \`message_notification\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_config_id\` ON \`message_notification\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_level\` ON \`message_notification\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_target_type\` ON \`message_notification\``);
    await queryRunner.query(`DROP INDEX \`idx_notification_status\` ON \`message_notification\``);
    await queryRunner.query(`DROP TABLE \`message_notification\``);
    await queryRunner.query(`DROP INDEX \`uk_email_tpl_cfg_key\` ON \`message_email_template_email_config\``);
    await queryRunner.query(`DROP INDEX \`idx_email_tpl_cfg_created_time\` ON \`message_email_template_email_config\``);
    await queryRunner.query(`DROP INDEX \`idx_email_tpl_cfg_template\` ON \`message_email_template_email_config\``);
    await queryRunner.query(`DROP INDEX \`idx_email_tpl_cfg_config\` ON \`message_email_template_email_config\``);
    await queryRunner.query(`DROP TABLE \`message_email_template_email_config\``);
    await queryRunner.query(`DROP INDEX \`uk_email_template_key\` ON \`message_email_template\``);
    await queryRunner.query(`DROP INDEX \`idx_email_template_created_time\` ON \`message_email_template\``);
    await queryRunner.query(`DROP INDEX \`idx_email_template_name\` ON \`message_email_template\``);
    await queryRunner.query(`DROP INDEX \`idx_email_template_content_type\` ON \`message_email_template\``);
    await queryRunner.query(`DROP INDEX \`idx_email_template_language\` ON \`message_email_template\``);
    await queryRunner.query(`DROP INDEX \`idx_email_template_enabled\` ON \`message_email_template\``);
    await queryRunner.query(`DROP TABLE \`message_email_template\``);
    await queryRunner.query(`DROP INDEX \`idx_email_config_created_time\` ON \`message_email_config\``);
    await queryRunner.query(`DROP INDEX \`idx_email_config_name\` ON \`message_email_config\``);
    await queryRunner.query(`DROP INDEX \`idx_email_config_host\` ON \`message_email_config\``);
    await queryRunner.query(`DROP INDEX \`idx_email_config_from_address\` ON \`message_email_config\``);
    await queryRunner.query(`DROP INDEX \`idx_email_config_enabled\` ON \`message_email_config\``);
    await queryRunner.query(`DROP TABLE \`message_email_config\``);
    await queryRunner.query(`DROP INDEX \`idx_email_send_time\` ON \`message_email\``);
    await queryRunner.query(`DROP INDEX \`idx_email_business_id\` ON \`message_email\``);
    await queryRunner.query(`DROP INDEX \`idx_email_business_type\` ON \`message_email\``);
    await queryRunner.query(`DROP INDEX \`idx_email_email_config_id\` ON \`message_email\``);
    await queryRunner.query(`DROP INDEX \`idx_email_email_template_id\` ON \`message_email\``);
    await queryRunner.query(`DROP INDEX \`idx_email_from_address\` ON \`message_email\``);
    await queryRunner.query(`DROP INDEX \`idx_email_status\` ON \`message_email\``);
    await queryRunner.query(`DROP TABLE \`message_email\``);
  }
}
