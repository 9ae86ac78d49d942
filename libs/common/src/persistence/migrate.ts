import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Applies a service's pending MySQL migrations (its `npm run migrate*` script and the Kubernetes
 * migration Job). Exits non-zero on failure, printing the message only (no SQL, no stack).
 */
export function runMigrationsCli(service: string, dataSource: () => DataSource): void {
  const migrate = async (): Promise<void> => {
    if (!process.env.DB_URL) {
      Logger.log(`DB_URL is not set: ${service}'s embedded SQLite schema is created at start-up; nothing to migrate.`, 'Migrate');
      return;
    }
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
    Logger.error(`${service}: migration failed: ${error.message}`, 'Migrate');
    process.exit(1);
  });
}
