/**
 * A request whose statement runs past DB_STATEMENT_TIMEOUT_MS gets the envelope's 503 (storage unavailable), never a
 * 500, as soon as the server stops the statement; its log line names the driver's code, not the SQL; the pool's
 * connection serves the next request. The statement is held up by a table lock another session takes (as a long
 * ALTER TABLE would). The database is migrated without the deadline, as the migration Job does. MySQL/MariaDB only:
 * SQLite has no server-side deadline.
 */
import { DatabaseConfig, readConfig, serviceDataSource } from '@app/common';
import type { Connection } from 'mysql2/promise';
import { MAIN_SERVICE } from '../../../apps/main-service/src/main-service.manifest';
import { createTestDatabase, serverConnection, TestDatabase, usingMysql } from '../../support/database';
import { LogCapture } from '../../support/observability';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';

const DDT = `${CONFIG}/data-dictionary-type`;
const TABLE = 'configuration_data_dictionary_type';
const DEADLINE_MS = 300;
/** How long the other session holds its lock at most. */
const LOCK_HELD_MS = 3000;
/** pino's level of an error line. */
const ERROR = 50;

(usingMysql() ? describe : describe.skip)('a statement past DB_STATEMENT_TIMEOUT_MS (MySQL/MariaDB)', () => {
  const logs = new LogCapture();
  let database: TestDatabase;
  let t: TestApp;
  /** Another client of the database, which holds the lock. */
  let other: Connection;
  let mariaDb: boolean;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = readConfig(DatabaseConfig, { ...database.env, SQLITE_DIR: ':memory:', DB_STATEMENT_TIMEOUT_MS: String(DEADLINE_MS) });
    const schema = await serviceDataSource(MAIN_SERVICE, config).initialize();
    try {
      await schema.runMigrations({ transaction: 'each' });
    } finally {
      await schema.destroy();
    }
    // one pool connection: the request after the one that failed runs on the very same
    const env = { DB_STATEMENT_TIMEOUT_MS: String(DEADLINE_MS), DB_POOL_SIZE: '1', LOG_LEVEL: 'error' };
    t = await startApp(env, { shared: database, skipMigrations: true, logTo: logs });
    other = await serverConnection();
    const [rows] = await other.query('SELECT VERSION() AS version');
    mariaDb = /mariadb/i.test(String((rows as { version: string }[])[0].version));
  });

  afterAll(async () => {
    await other?.end();
    await t?.close();
    await database?.drop();
  });

  /**
   * `request` answered while another session holds a write lock on the resource's table, and how long it took. The
   * lock is let go after LOCK_HELD_MS in any case: a statement without a deadline then ends, answered late.
   */
  async function whileLocked(request: () => Promise<Envelope>): Promise<{ res: Envelope; ms: number }> {
    await other.query(`LOCK TABLES \`${t.dataSource.driver.database}\`.\`${TABLE}\` WRITE`);
    const unlock = () => other.query('UNLOCK TABLES');
    const timer = setTimeout(() => void unlock(), LOCK_HELD_MS);
    const started = Date.now();
    try {
      const res = await request();
      return { res, ms: Date.now() - started };
    } finally {
      clearTimeout(timer);
      await unlock();
    }
  }

  const connectionsOpened = async (): Promise<string | undefined> =>
    (await t.http().get('/main-service/metrics')).text.match(/^db_pool_connections_opened_total (\d+)$/m)?.[1];

  const expectUnavailable = ({ res, ms }: { res: Envelope; ms: number }, path: string) => {
    expect({ http: res.httpStatus, status: res.status, error: res.error, path: res.path, data: res.data }).toEqual({
      http: 503,
      status: 503,
      error: 'Storage unavailable',
      path,
      data: null,
    });
    expect(JSON.stringify(res)).not.toMatch(/ER_|SELECT|INSERT|max_statement_time|max_execution_time/);
    expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(ms).toBeLessThan(LOCK_HELD_MS);
  };

  it('a page whose read waits past the deadline: HTTP 503, the envelope; the next request is served', async () => {
    const opened = await connectionsOpened();
    expect(opened).toMatch(/^\d+$/);
    expectUnavailable(await whileLocked(() => t.post(`${DDT}/page`, { current: 1, pageSize: 10 })), `${DDT}/page`);
    expect(await t.post(`${DDT}/page`, { current: 1, pageSize: 10 })).toMatchObject({ httpStatus: 200, status: 200 });
    // on the pool's one connection, not a new one
    expect(await connectionsOpened()).toBe(opened);
  });

  it('the fault is logged with its code, without SQL', () => {
    const code = mariaDb ? 'ER_STATEMENT_TIMEOUT' : 'ER_QUERY_TIMEOUT';
    const faults = logs.lines.filter((line) => line.level === ERROR && line.context === 'Exceptions');
    expect(faults.map((line) => line.msg)).toEqual([expect.stringMatching(new RegExp(`POST ${DDT}/page failed: 503 \\w+ \\(${code}\\)$`))]);
    expect(logs.text()).not.toMatch(/\bSELECT\b|\bFROM\b|\bWHERE\b/);
  });

  it('a write waiting past the deadline too (MariaDB: MySQL bounds only SELECTs): 503, and nothing written', async () => {
    if (!mariaDb) return;
    const code = 'ddt-past-deadline';
    expectUnavailable(await whileLocked(() => t.post(`${DDT}/save`, { dataDictionaryTypeCode: code })), `${DDT}/save`);
    expect(await t.post(`${DDT}/count`, { dataDictionaryTypeCode: code })).toMatchObject({ httpStatus: 200, data: 0 });
    expect(await t.post(`${DDT}/save`, { dataDictionaryTypeCode: code })).toMatchObject({ httpStatus: 200, data: true });
  });
});
