import { QueryRunner } from 'typeorm';

/** The record tables of the migrated database (MySQL/MariaDB): those with a tenant and a deletion time. */
export async function recordTables(queryRunner: QueryRunner): Promise<string[]> {
  const rows = (await queryRunner.query(
    `SELECT t.TABLE_NAME AS name FROM information_schema.COLUMNS t JOIN information_schema.COLUMNS d
       ON d.TABLE_SCHEMA = t.TABLE_SCHEMA AND d.TABLE_NAME = t.TABLE_NAME AND d.COLUMN_NAME = 'delete_time'
     WHERE t.TABLE_SCHEMA = DATABASE() AND t.COLUMN_NAME = 'tenant_id' ORDER BY t.TABLE_NAME`,
  )) as { name: string }[];
  return rows.map((row) => row.name);
}
