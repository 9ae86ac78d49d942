import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSourceOptions, MigrationInterface } from 'typeorm';
import { StartupFailure } from '../app/startup-failure';
import { DatabaseConfig } from '../config/database.config';
import { useLongTextType } from './columns';
import { openingFrom, preparedInMemorySqlite } from './prepared-sqlite';
import { SnakeNamingStrategy } from './snake-naming.strategy';
import { RequestConnectionLimits } from './request-connections';
import { mysql2WithStatementDeadline } from './statement-deadline';
import { GaleraNodes } from './galera-nodes';

/** An entity class (TypeORM reads its decorators). */
export type EntityClass = new (...args: never[]) => object;
/** A checked-in migration class. */
export type MigrationClass = new () => MigrationInterface;

export interface StorageParts {
  /** Service name: the SQLite file name. */
  name: string;
  entities: EntityClass[];
  /** Checked-in MySQL migrations (SQLite is created from the entities). */
  migrations: MigrationClass[];
}

/**
 * How a MySQL/MariaDB connection carries values, the same for the services and the library's own test tables:
 * utf8mb4 with the schema's binary collation (exact keys), dates in UTC, BIGINT as a JS number.
 */
export const MYSQL_VALUE_SETTINGS = { charset: 'utf8mb4_bin', timezone: 'Z', supportBigNumbers: true, bigNumberStrings: false } as const;

/**
 * What a data source is for: a running service, whose MySQL/MariaDB statements each end at DB_STATEMENT_TIMEOUT_MS,
 * or schema work (the migrations, the TypeORM CLI), whose statements keep the server's own setting (none by default):
 * an ALTER TABLE of a large table may rightly take minutes, and the migration Job's activeDeadlineSeconds bounds the run.
 */
export type DataSourceUse = 'service' | 'schema';

/**
 * MySQL/MariaDB via mysql2 when DB_URL is set (`mysql://` or `mariadb://`) (schema from migrations only), else embedded SQLite
 * (schema synchronised from the entities, or an in-memory copy of a prepared image; files under SQLITE_DIR or `:memory:`).
 */
export function dataSourceOptions(
  config: DatabaseConfig,
  parts: StorageParts,
  use: DataSourceUse = 'service',
  requests?: RequestConnectionLimits,
): DataSourceOptions {
  const common = { entities: parts.entities, namingStrategy: new SnakeNamingStrategy() };
  useLongTextType(config.dbUrl ? 'mysql' : 'sqlite');
  if (config.dbUrl) {
    return {
      ...common,
      // same mysql2 driver; `mariadb://` only switches TypeORM's MariaDB-specific schema reading
      type: config.dbUrl.startsWith('mariadb://') ? 'mariadb' : 'mysql',
      url: config.dbUrl.replace(/^mariadb:/, 'mysql:'),
      ...MYSQL_VALUE_SETTINGS,
      migrations: parts.migrations,
      migrationsTableName: 'schema_migrations',
      synchronize: false,
      poolSize: config.dbPoolSize,
      // a dead database must give a fast 503, not an unbounded queue of waiting requests
      // trace: off, mysql2 captures a stack trace for every query, for errors whose stacks are never logged or answered
      // maxPreparedStatements: each connection keeps its 64 most recent prepared statements (sql/run-statement.ts);
      // the server's max_prepared_stmt_count (16,382 by default) is shared by every connection of every replica
      extra: { queueLimit: 200, connectTimeout: 5000, waitForConnections: true, trace: false, maxPreparedStatements: 64 },
      // the server stops a statement that runs past DB_STATEMENT_TIMEOUT_MS: each pool connection gets the deadline
      // before its first statement (statement-deadline.ts)
      // and, with `requests` (a service's admission), requests wait for a connection a bounded time and never take the
      // reserve kept for background work and probes (request-connections.ts)
      // with DB_HOSTS (a Galera cluster), the service's connections go to ready nodes only (galera-nodes.ts); schema work
      // goes to DB_URL's node, where DDL replicates to the others
      ...(use === 'service' ? { driver: mysql2WithStatementDeadline(config.dbStatementTimeoutMs, requests, galeraNodes(config)) } : {}),
    };
  }
  requireSqliteDriver();
  const inMemory = config.sqliteDir === ':memory:';
  if (!inMemory) mkdirSync(config.sqliteDir, { recursive: true });
  const image = inMemory ? preparedInMemorySqlite(parts.name) : undefined;
  return {
    ...common,
    type: 'better-sqlite3',
    database: inMemory ? ':memory:' : join(config.sqliteDir, `${parts.name}.sqlite`),
    // a prepared image holds the schema synchronize would make (prepared-sqlite.ts)
    ...(image ? { driver: openingFrom(image), synchronize: false } : { synchronize: true }),
    enableWAL: !inMemory,
    timeout: 5000,
  };
}

/** The nodes of DB_HOSTS, once per configuration (a service's one data source), or none without it. */
const clusters = new WeakMap<DatabaseConfig, GaleraNodes>();
function galeraNodes(config: DatabaseConfig): GaleraNodes | undefined {
  if (!config.dbHosts || !config.dbUrl) return undefined;
  let nodes = clusters.get(config);
  if (!nodes) clusters.set(config, (nodes = GaleraNodes.of(config.dbHosts, config.dbUrl)));
  nodes.start(); // again after a pool that ended stopped its probes (a data source made anew)
  return nodes;
}

/**
 * better-sqlite3 is an optional dependency: the production images leave it out (they only talk to MySQL). Without
 * it, say what to set instead of TypeORM's retried "package not found".
 */
function requireSqliteDriver(): void {
  try {
    require.resolve('better-sqlite3');
  } catch {
    throw new StartupFailure(
      'DB_URL is not set, which selects the embedded SQLite database, but its driver better-sqlite3 (an optional ' +
        'dependency, left out of the production images) is not installed: set DB_URL to a mysql:// or mariadb:// URL, ' +
        'or install better-sqlite3 for embedded mode',
    );
  }
}
