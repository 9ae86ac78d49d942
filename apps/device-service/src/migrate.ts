import { Logger } from '@nestjs/common';
import { deviceServiceDataSource } from './data-source';

/** Applies pending MySQL migrations of device-service's own database (DB_URL of device-service). */
async function migrate(): Promise<void> {
  if (!process.env.DB_URL) {
    Logger.log('DB_URL is not set: the embedded SQLite schema is created at start-up; nothing to migrate.', 'Migrate');
    return;
  }
  const dataSource = await deviceServiceDataSource().initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    Logger.log(`${applied.length} migration(s) applied: ${applied.map((m) => m.name).join(', ') || 'none pending'}`, 'Migrate');
  } finally {
    await dataSource.destroy();
  }
}

migrate().catch((error: Error) => {
  Logger.error(`migration failed: ${error.message}`, 'Migrate');
  process.exit(1);
});
