/**
 * The deadline on every statement of a service's MySQL/MariaDB pool (DB_STATEMENT_TIMEOUT_MS, statement-deadline.ts):
 * the server stops a statement past it, on every connection of the pool, through TypeORM's query runners and through
 * the prepared statements run on the pool directly (sql/run-statement.ts); the connection serves on; the
 * failure is the storage-unavailable 503's; schema work has none. The server cases run on the MySQL/MariaDB leg only
 * (DB_URL set): SQLite has no server-side deadline.
 */
import * as mysql2 from 'mysql2';
import type { Pool, RowDataPacket } from 'mysql2';
import { DataSource, QueryFailedError } from 'typeorm';
import { createTestDatabase, TestDatabase, usingMysql } from '../../../../test/support/database';
import { DatabaseConfig } from '../config/database.config';
import { readConfig } from '../config/environment';
import { driverPool } from './sql/driver-pool';
import { selectRows } from './sql/run-statement';
import { dataSourceOptions, DataSourceUse } from './database';
import { driverCodeOf, isStatementTimeoutError, isStorageUnavailableError } from './db-errors';
import { statementDeadlineSql } from './statement-deadline';

/** The deadline of these tests: long enough for any light statement on a loaded machine, short enough to wait for. */
const DEADLINE_MS = 300;
/** Seconds a slow statement would sleep without the deadline. */
const SLEEP_S = 5;
/**
 * A statement that runs SLEEP_S seconds: SLEEP as part of a query over a table's row (MySQL answers a SELECT of SLEEP
 * alone that was interrupted with 1, not an error: its SLEEP documentation).
 */
const SLOW = `SELECT id FROM deadline_probe WHERE SLEEP(${SLEEP_S}) = 0`;
const SLOW_PREPARED = 'SELECT id FROM deadline_probe WHERE SLEEP(?) = 0';

const NO_PARTS = { name: 'statement-deadline', entities: [], migrations: [] };
const databaseConfig = (env: Record<string, string>): DatabaseConfig =>
  readConfig(DatabaseConfig, { SQLITE_DIR: ':memory:', DB_STATEMENT_TIMEOUT_MS: String(DEADLINE_MS), ...env });

/** What the data source's connections run with: the session's deadline and its connection. */
async function session(runner: { query(sql: string): Promise<unknown> }, mariaDb: boolean): Promise<{ deadline: number; id: number }> {
  const variable = mariaDb ? '@@SESSION.max_statement_time' : '@@SESSION.max_execution_time / 1000';
  const [row] = (await runner.query(`SELECT ${variable} AS deadline, CONNECTION_ID() AS id`)) as { deadline: unknown; id: unknown }[];
  return { deadline: Number(row.deadline), id: Number(row.id) };
}

/** A statement's failure and how long it took. */
async function failureOf(run: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

describe('the statement that sets the deadline', () => {
  it("MariaDB's max_statement_time in seconds, any statement; MySQL's max_execution_time in milliseconds", () => {
    expect(statementDeadlineSql('10.11.19-MariaDB-0+deb12u1', 300)).toBe('SET SESSION max_statement_time = 0.300');
    expect(statementDeadlineSql('5.5.5-10.6.18-MariaDB', 30_000)).toBe('SET SESSION max_statement_time = 30.000');
    expect(statementDeadlineSql('11.4.2-MariaDB-log', 1234)).toBe('SET SESSION max_statement_time = 1.234');
    expect(statementDeadlineSql('8.0.36', 300)).toBe('SET SESSION max_execution_time = 300');
    expect(statementDeadlineSql('8.4.0-commercial', 30_000)).toBe('SET SESSION max_execution_time = 30000');
    expect(statementDeadlineSql('10.11.19-MariaDB-0+deb12u1', 300, true)).toBe(
      'SET SESSION max_statement_time = 0.300, wsrep_sync_wait = 3',
    );
  });
});

describe('the error of a statement past its deadline', () => {
  /** The driver's error as mysql2 makes it, inside TypeORM's, as a query runner or pooled statement throws it. */
  const failed = (errno: number, code?: string) =>
    new QueryFailedError('SELECT 1', [], Object.assign(new Error('Query execution was interrupted'), { errno, code, sqlState: '70100' }));

  it("is storage unavailable (the envelope's 503) on MariaDB (1969) and MySQL (3024), named or not", () => {
    for (const error of [failed(1969), failed(1969, 'ER_STATEMENT_TIMEOUT'), failed(3024, 'ER_QUERY_TIMEOUT')]) {
      expect(isStatementTimeoutError(error)).toBe(true);
      expect(isStorageUnavailableError(error)).toBe(true);
    }
  });

  it("is named for the log line, also where mysql2 gives MariaDB's no code", () => {
    expect([failed(1969), failed(3024), failed(1064, 'ER_PARSE_ERROR'), failed(1317)].map(driverCodeOf)).toEqual([
      'ER_STATEMENT_TIMEOUT',
      'ER_QUERY_TIMEOUT',
      'ER_PARSE_ERROR',
      undefined,
    ]);
  });

  it('no other failure is', () => {
    for (const error of [failed(1064, 'ER_PARSE_ERROR'), failed(1317, 'ER_QUERY_INTERRUPTED'), new Error('1969'), undefined]) {
      expect(isStatementTimeoutError(error)).toBe(false);
    }
    expect(isStorageUnavailableError(failed(1064, 'ER_PARSE_ERROR'))).toBe(false);
  });
});

describe('which data sources get it', () => {
  const mysqlConfig = databaseConfig({ DB_URL: 'mysql://app@db.example:3306/backoffice' });
  const driverOf = (use?: DataSourceUse) => (dataSourceOptions(mysqlConfig, NO_PARTS, use) as { driver?: unknown }).driver;

  it("a service's MySQL/MariaDB data source loads mysql2 with the deadline; schema work loads mysql2 itself", () => {
    expect(driverOf()).toBeDefined();
    expect(driverOf('service')).toBeDefined();
    expect(driverOf('schema')).toBeUndefined();
  });

  it('SQLite has no server to stop a statement: nothing is added', () => {
    if (!hasSqliteDriver()) return;
    expect((dataSourceOptions(databaseConfig({}), NO_PARTS) as { driver?: unknown }).driver).toBeUndefined();
  });
});

/** better-sqlite3 is optional (the production images leave it out). */
function hasSqliteDriver(): boolean {
  try {
    require.resolve('better-sqlite3');
    return true;
  } catch {
    return false;
  }
}

(usingMysql() ? describe : describe.skip)('on MySQL/MariaDB', () => {
  let database: TestDatabase;
  /** The service's data source, with one pool connection: every statement below runs on that one. */
  let dataSource: DataSource;
  let mariaDb: boolean;
  const open = async (env: Record<string, string>, use?: DataSourceUse) =>
    new DataSource(dataSourceOptions(databaseConfig({ ...database.env, ...env }), NO_PARTS, use)).initialize();

  beforeAll(async () => {
    database = await createTestDatabase();
    const schema = await open({}, 'schema');
    await schema.query('CREATE TABLE deadline_probe (id INT PRIMARY KEY)');
    await schema.query('INSERT INTO deadline_probe (id) VALUES (1)');
    mariaDb = /mariadb/i.test(String((await schema.query('SELECT VERSION() AS version'))[0].version));
    await schema.destroy();
    dataSource = await open({ DB_POOL_SIZE: '1' });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const timeout = () => (mariaDb ? { errno: 1969, code: 'ER_STATEMENT_TIMEOUT' } : { errno: 3024, code: 'ER_QUERY_TIMEOUT' });
  /** The failure of a statement stopped at the deadline: TypeORM's error around the driver's timeout, named, soon after it. */
  const expectStoppedAtDeadline = ({ error, ms }: { error: unknown; ms: number }) => {
    expect(error).toBeInstanceOf(QueryFailedError);
    const driverError = (error as QueryFailedError & { driverError: { errno: number } }).driverError;
    expect({ errno: driverError.errno, code: driverCodeOf(error) }).toEqual(timeout());
    expect(isStorageUnavailableError(error)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(ms).toBeLessThan((SLEEP_S * 1000) / 2);
  };

  it("a statement through TypeORM's query runner is stopped at the deadline; its connection serves on", async () => {
    const runner = dataSource.createQueryRunner();
    try {
      const before = await session(runner, mariaDb);
      expect(before.deadline).toBe(DEADLINE_MS / 1000);
      expectStoppedAtDeadline(await failureOf(() => runner.query(SLOW)));
      expect(await session(runner, mariaDb)).toEqual(before);
      expect(await runner.query('SELECT id FROM deadline_probe')).toEqual([{ id: 1 }]);
    } finally {
      await runner.release();
    }
  });

  it('a prepared statement on the same pool (pool.execute) is stopped at the deadline; the connection serves on', async () => {
    const pool = driverPool(dataSource) as Pool;
    const execute = (sql: string, values: number[]) =>
      new Promise<RowDataPacket[]>((resolve, reject) =>
        pool.execute<RowDataPacket[]>(sql, values, (error, rows) =>
          error ? reject(new QueryFailedError(sql, values, error)) : resolve(rows),
        ),
      );
    const [{ id: connection }] = await execute('SELECT CONNECTION_ID() AS id', []);
    expectStoppedAtDeadline(await failureOf(() => execute(SLOW_PREPARED, [SLEEP_S])));
    expect(await execute('SELECT CONNECTION_ID() AS id, ? AS answer', [42])).toEqual([{ id: connection, answer: 42 }]);
  });

  it("and so is the tables' repeated statement, prepared on that pool", async () => {
    const execute = jest.spyOn(driverPool(dataSource) as Pool, 'execute');
    try {
      expectStoppedAtDeadline(await failureOf(() => selectRows(dataSource.manager, SLOW_PREPARED, [SLEEP_S], 'repeated')));
      expect(await selectRows(dataSource.manager, 'SELECT id FROM deadline_probe WHERE id = ?', [1], 'repeated')).toEqual([{ id: 1 }]);
      expect(execute).toHaveBeenCalledTimes(2);
    } finally {
      execute.mockRestore();
    }
  });

  it('a statement in a transaction is stopped at the deadline; the transaction goes on and commits', async () => {
    await dataSource.transaction(async (manager) => {
      await manager.query('INSERT INTO deadline_probe (id) VALUES (2)');
      expectStoppedAtDeadline(await failureOf(() => manager.query(SLOW)));
    });
    expect(await dataSource.query('SELECT id FROM deadline_probe ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
    await dataSource.query('DELETE FROM deadline_probe WHERE id = 2');
  });

  it('every connection of the pool has the deadline from its first statement on', async () => {
    const wide = await open({ DB_POOL_SIZE: '4' });
    const runners = Array.from({ length: 4 }, () => wide.createQueryRunner());
    try {
      await Promise.all(runners.map((runner) => runner.connect())); // four connections held at once
      const sessions = await Promise.all(runners.map((runner) => session(runner, mariaDb)));
      expect(new Set(sessions.map((s) => s.id)).size).toBe(4);
      expect(sessions.map((s) => s.deadline)).toEqual(Array(4).fill(DEADLINE_MS / 1000));
    } finally {
      await Promise.all(runners.map((runner) => runner.release()));
      await wide.destroy();
    }
  });

  it("schema work's data source runs a statement past the deadline to its end", async () => {
    const schema = await open({}, 'schema');
    try {
      const [row] = await schema.query(`SELECT id FROM deadline_probe WHERE SLEEP(${(DEADLINE_MS * 2) / 1000}) = 0`);
      expect(row).toEqual({ id: 1 });
    } finally {
      await schema.destroy();
    }
  });

  it('a connection whose deadline cannot be set is closed, never used: its caller gets the failure', async () => {
    // the pool's connections send a SET the server refuses in place of the deadline's
    const query = mysql2.Connection.prototype.query;
    const refusing = jest.spyOn(mysql2.PoolConnection.prototype, 'query').mockImplementation(function (
      this: mysql2.PoolConnection,
      sql: unknown,
      ...rest: unknown[]
    ) {
      const sent = typeof sql === 'string' && sql.startsWith('SET SESSION max_') ? 'SET SESSION no_such_deadline = 1' : sql;
      return query.apply(this, [sent, ...rest] as never);
    } as never);
    try {
      const { error } = await failureOf(() => open({}));
      expect((error as { code?: string }).code).toBe('ER_UNKNOWN_SYSTEM_VARIABLE');
      // the version, whether it is a Galera node, the deadline, and nothing after it on that connection
      expect(refusing.mock.calls.map(([sql]) => sql)).toEqual([
        'SELECT VERSION() AS version',
        "SHOW GLOBAL VARIABLES LIKE 'wsrep_on'",
        expect.stringMatching(/^SET SESSION max_/),
      ]);
    } finally {
      refusing.mockRestore();
    }
  });
});
