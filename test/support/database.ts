import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import type { EntityClass } from '../../libs/common/src/persistence/database';
import { SnakeNamingStrategy } from '../../libs/common/src/persistence/snake-naming.strategy';

/**
 * Each test file gets its own MySQL database (named after DB_URL's, plus worker and random suffix),
 * so files run in parallel and leave nothing behind. Without DB_URL the app uses in-memory SQLite.
 */
export interface TestDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

export const usingMysql = (): boolean => !!process.env.DB_URL;

export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DB_URL;
  if (!base) return { env: { SQLITE_DIR: ':memory:' }, drop: async () => undefined };
  const url = new URL(base.replace(/^mariadb:/, 'mysql:'));
  const name = `${url.pathname.slice(1)}_w${process.env.JEST_WORKER_ID ?? 0}_${randomBytes(4).toString('hex')}`;
  const admin = () =>
    createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    });
  const connection = await admin();
  await connection.query(`CREATE DATABASE \`${name}\``);
  await connection.end();
  const scheme = base.startsWith('mariadb:') ? 'mariadb:' : 'mysql:';
  const dbUrl = `${scheme}//${url.username}${url.password ? `:${url.password}` : ''}@${url.host}/${name}`;
  return {
    env: { DB_URL: dbUrl },
    drop: async () => {
      const c = await admin();
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    },
  };
}

/**
 * A data source of only the given entities on a test database, its schema made from them: the fixtures
 * of the library's own tests (tables no service has), with the services' driver settings.
 */
export async function fixtureDataSource(database: TestDatabase, entities: EntityClass[]): Promise<DataSource> {
  const common = { entities, namingStrategy: new SnakeNamingStrategy(), synchronize: true };
  const url = database.env.DB_URL;
  const dataSource = new DataSource(
    url
      ? {
          ...common,
          type: 'mysql',
          url: url.replace(/^mariadb:/, 'mysql:'),
          charset: 'utf8mb4_bin',
          supportBigNumbers: true,
          bigNumberStrings: false,
        }
      : { ...common, type: 'better-sqlite3', database: ':memory:' },
  );
  return dataSource.initialize();
}
