import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { EntityClass, MYSQL_VALUE_SETTINGS } from '../../libs/common/src/persistence/database';
import { SnakeNamingStrategy } from '../../libs/common/src/persistence/snake-naming.strategy';
import { createLiveCountTriggers } from '../../libs/common/src/persistence/live-count-sql';

/**
 * Each test file gets its own MySQL database (named after DB_URL's, plus worker and random suffix),
 * so files run in parallel and leave nothing behind. Without DB_URL the app uses in-memory SQLite.
 */
export interface TestDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * DB_URL as the test run was given it, read once: while a service is being built, process.env holds that
 * service's own database URL (see process-env.ts), and a database named after it would nest the suffixes.
 */
const RUN_DB_URL = process.env.DB_URL;

/** Whether the run is on MySQL/MariaDB (DB_URL given) rather than SQLite: the one place the suites ask. */
export const usingMysql = (): boolean => !!RUN_DB_URL;

/** DB_URL as a URL (the mysql: scheme, which node's URL parses like mariadb:). */
const serverUrl = (): URL => new URL(RUN_DB_URL!.replace(/^mariadb:/, 'mysql:'));

/** A connection to DB_URL's server with no database selected: to create and drop databases. */
export function serverConnection(): Promise<Connection> {
  const url = serverUrl();
  return createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  });
}

/** The name of DB_URL's database. */
export const baseDatabaseName = (): string => serverUrl().pathname.slice(1);

/** DB_URL with database `name` instead of its own (its scheme kept). */
export function databaseUrl(name: string): string {
  const url = serverUrl();
  const scheme = RUN_DB_URL!.startsWith('mariadb:') ? 'mariadb:' : 'mysql:';
  return `${scheme}//${url.username}${url.password ? `:${url.password}` : ''}@${url.host}/${name}`;
}

/** MariaDB's "can't rmdir": every table is dropped, but the folder holds a file the server does not own. */
const ER_DB_DROP_RMDIR = 1010;

/**
 * Drops database `name` if it exists. A drop that removed every table but not the folder is reported, not failed:
 * MariaDB 10.11 was seen to leave a trigger file's backup (`<table>.TRG-`) behind, which no later drop removes.
 */
export async function dropDatabase(name: string): Promise<void> {
  const connection = await serverConnection();
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } catch (error) {
    if ((error as { errno?: number }).errno !== ER_DB_DROP_RMDIR) throw error;
    console.warn(`database ${name}: its tables are dropped, its folder is not (${(error as Error).message})`);
  } finally {
    await connection.end();
  }
}

/**
 * One database for several app instances (replicas): a fresh MySQL/MariaDB database with DB_URL, else
 * a SQLite file in a new temporary folder (instances cannot share `:memory:`). Pass it as `shared`.
 */
export async function createSharedDatabase(): Promise<TestDatabase> {
  if (usingMysql()) return createTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'replicas-'));
  return { env: { SQLITE_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (!usingMysql()) return { env: { SQLITE_DIR: ':memory:' }, drop: async () => undefined };
  const name = `${baseDatabaseName()}_w${process.env.JEST_WORKER_ID ?? 0}_${randomBytes(4).toString('hex')}`;
  const connection = await serverConnection();
  await connection.query(`CREATE DATABASE \`${name}\``);
  await connection.end();
  return { env: { DB_URL: databaseUrl(name) }, drop: () => dropDatabase(name) };
}

/**
 * A data source of only the given entities on a test database, its schema made from them: the fixtures
 * of the library's own tests (tables no service has), with the services' driver settings. The `counted` record
 * entities get their live and write counts (with LiveCount among the entities).
 */
export async function fixtureDataSource(
  database: TestDatabase,
  entities: EntityClass[],
  { counted = [] }: { counted?: EntityClass[] } = {},
): Promise<DataSource> {
  const common = { entities, namingStrategy: new SnakeNamingStrategy(), synchronize: true };
  const url = database.env.DB_URL;
  const dataSource = new DataSource(
    url
      ? {
          ...common,
          type: 'mysql',
          url: url.replace(/^mariadb:/, 'mysql:'),
          ...MYSQL_VALUE_SETTINGS,
        }
      : { ...common, type: 'better-sqlite3', database: ':memory:' },
  );
  await dataSource.initialize();
  // the record tables whose live rows and writes are counted, as a service's migrations count its tables (SQLite
  // tables get their triggers on first use)
  if (url && counted.length) {
    const runner = dataSource.createQueryRunner();
    for (const entity of counted) await createLiveCountTriggers(runner, dataSource.getMetadata(entity).tableName);
    await runner.release();
  }
  return dataSource;
}
