import { Logger } from '@nestjs/common';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { explainStartupError, exitWithStartupFailure } from '../app/startup-failure';
import { processOutput } from '../logging/app-logging';
import { NestLines } from '../logging/nest-lines';
import { ensureDatabase } from './ensure-database';

/**
 * Applies a service's pending MySQL migrations (its `npm run migrate*` script and the Kubernetes
 * migration Job), creating the database first when it does not exist. Exits non-zero on failure,
 * printing the message only (no SQL, no stack); an unreachable database is reported naming DB_URL.
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
    await ensureDatabase(dbUrl);
    const ds = await dataSource().initialize();
    try {
      const applied = await ds.runMigrations({ transaction: 'each' });
      Logger.log(
        `${service}: ${applied.length} migration(s) applied: ${applied.map((m) => m.name).join(', ') || 'none pending'}`,
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
