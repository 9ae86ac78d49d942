import { Logger } from '@nestjs/common';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { explainStartupError, exitWithStartupFailure } from '../app/startup-failure';
import { processOutput } from '../logging/app-logging';
import { NestLines } from '../logging/nest-lines';
import { ensureDatabase } from './ensure-database';

/**
 * Applies a service's pending MySQL migrations (its `npm run migrate*` script and the Kubernetes
 * migration Job), creating the database first when it does not exist. Says what it did, one line each:
 * `created database <name>`, then `applied <n> migrations to <name>: ...` or `database <name> is up to date`.
 * Exits non-zero on failure, printing the message only (no SQL, no stack); an unreachable database is
 * reported naming DB_URL.
 */
export function runMigrationsCli(service: string, dataSource: () => DataSource): void {
  // JSON lines like the services' own
  Logger.overrideLogger(new NestLines(pino({ base: { service }, timestamp: pino.stdTimeFunctions.isoTime }, processOutput())));
  const migrate = async (): Promise<void> => {
    const dbUrl = process.env.DB_URL;
    if (!dbUrl) {
      Logger.log(`DB_URL is not set: ${service}'s embedded SQLite schema is created at start-up; nothing to migrate.`, 'Migrate');
      return;
    }
    const { name, created } = await ensureDatabase(dbUrl);
    if (created) Logger.log(`created database ${name}`, 'Migrate');
    const ds = await dataSource().initialize();
    try {
      const applied = await ds.runMigrations({ transaction: 'each' });
      Logger.log(
        applied.length
          ? `applied ${applied.length} migration${applied.length === 1 ? '' : 's'} to ${name}: ${applied.map((m) => m.name).join(', ')}`
          : `database ${name} is up to date`,
        'Migrate',
      );
    } finally {
      await ds.destroy();
    }
  };
  migrate().catch((error: Error) => {
    const failure = explainStartupError(error, process.env);
    if (failure) exitWithStartupFailure(service, failure);
    Logger.error(`${service}: migration failed: ${error.message}`, 'Migrate');
    processOutput().flushSync();
    process.exit(1);
  });
}
