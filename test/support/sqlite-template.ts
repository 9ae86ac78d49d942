/**
 * Each service's in-memory SQLite schema, built once per test run and opened as a copy by every app the run starts
 * on SQLite (libs/common/src/persistence/prepared-sqlite.ts): synchronize from the entities, with the derived
 * indexes, and the live-count triggers of every record table, as the app makes them on a table's first use.
 * sqlite-template.spec.ts checks that the copy's schema is the one the app builds for itself.
 */
import { DatabaseConfig, serviceDataSource, ServiceManifest } from '@app/common';
import { DataSource } from 'typeorm';
import { LiveCounts } from '../../libs/common/src/crud/tables/live-counts';
import { prepareInMemorySqlite, preparedInMemorySqlite } from '../../libs/common/src/persistence/prepared-sqlite';
import { readRunFile, writeRunFile } from './run-files';

/** The record tables (a tenant and a deletion time): those whose rows the live-count triggers count, as on MySQL/MariaDB. */
export function recordTablesOf(dataSource: DataSource): string[] {
  const has = (columns: { databaseName: string }[], name: string) => columns.some((column) => column.databaseName === name);
  return dataSource.entityMetadatas
    .filter((meta) => has(meta.columns, 'tenant_id') && has(meta.columns, 'delete_time'))
    .map((meta) => meta.tableName)
    .sort();
}

/** Gives every record table its live-count triggers through the app's own path (LiveCounts, on first use of a table). */
export async function countEveryRecordTable(dataSource: DataSource): Promise<void> {
  const counts = LiveCounts.of(dataSource);
  for (const table of recordTablesOf(dataSource)) await counts.count(table, 'schema-template');
}

/** The serialized database of a service's freshly built in-memory schema. */
export async function buildSqliteImage(service: ServiceManifest): Promise<Buffer> {
  if (preparedInMemorySqlite(service.name)) throw new Error(`${service.name}: the image is built from the entities, not from an image`);
  const dataSource = serviceDataSource(service, Object.assign(new DatabaseConfig(), { sqliteDir: ':memory:' }));
  await dataSource.initialize();
  try {
    await countEveryRecordTable(dataSource);
    const driver = dataSource.driver as unknown as { databaseConnection: { serialize(): Buffer } };
    return driver.databaseConnection.serialize();
  } finally {
    await dataSource.destroy();
  }
}

/** Per test file: each service's image, read from the run's folder or built (Jest loads the library anew for each file). */
const images = new Map<string, Promise<Buffer>>();

function imageOf(service: ServiceManifest): Promise<Buffer> {
  let image = images.get(service.name);
  if (!image) {
    image = (async () => {
      const name = `${service.name}.sqlite`;
      const kept = readRunFile(name);
      if (kept) return kept;
      const built = await buildSqliteImage(service);
      writeRunFile(name, built);
      return built;
    })();
    images.set(service.name, image);
    image.catch(() => images.delete(service.name));
  }
  return image;
}

/**
 * From now on the service's in-memory apps open a copy of its image (the run's, or one built now and kept for the
 * run); with `use` false, they build their schema themselves.
 */
export async function useSqliteTemplate(service: ServiceManifest, use = true): Promise<void> {
  prepareInMemorySqlite(service.name, use ? await imageOf(service) : undefined);
}
