import { DataSource } from 'typeorm';
import { storageOf } from '../common.module';
import { DatabaseConfig } from '../config/database.config';
import { readConfig } from '../config/environment';
import { dataSourceOptions } from '../persistence/database';
import { runMigrationsCli } from '../persistence/migrate';
import type { ServiceManifest } from './service-manifest';

/**
 * A service's schema outside the app (the TypeORM CLI, `npm run migrate*` and the migration Job): the options CommonModule
 * gives TypeORM, without the statement deadline (DB_STATEMENT_TIMEOUT_MS), as schema work needs (database.ts DataSourceUse).
 */
export function serviceDataSource(
  manifest: ServiceManifest,
  database: DatabaseConfig = readConfig(DatabaseConfig, process.env),
): DataSource {
  return new DataSource(dataSourceOptions(database, storageOf(manifest), 'schema'));
}

/** Applies the service's pending migrations: its `npm run migrate*` script and the Kubernetes migration Job. */
export function migrateService(manifest: ServiceManifest): void {
  runMigrationsCli(manifest.name, () => serviceDataSource(manifest));
}
