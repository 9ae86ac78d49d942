import { QueryRunner } from 'typeorm';

/**
 * Whether the server swaps a trigger in one statement (MariaDB's CREATE OR REPLACE TRIGGER): a write running
 * meanwhile meets the old trigger or the new one, never none, so a migration needs no lock. MySQL has no such form.
 */
export async function swapsTriggersInPlace(queryRunner: QueryRunner): Promise<boolean> {
  const [{ version }] = (await queryRunner.query('SELECT VERSION() AS version')) as { version: string }[];
  return /mariadb/i.test(version);
}

/** A CREATE TRIGGER statement as the one-statement swap of the trigger of that name. */
export const replacingTrigger = (sql: string): string => sql.replace(/^CREATE TRIGGER /, 'CREATE OR REPLACE TRIGGER ');
