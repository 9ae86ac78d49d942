import { Logger } from '@nestjs/common';
import { mainServiceDataSource } from './data-source';

/** Applies pending MySQL migrations (`npm run migrate`; the Kubernetes migration Job runs the same). */
async function migrate(): Promise<void> {
  if (!process.env.DB_URL) {
    Logger.log('DB_URL is not set: the embedded SQLite schema is created at start-up; nothing to migrate.', 'Migrate');
    return;
  }
  const dataSource = await mainServiceDataSource().initialize();
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
