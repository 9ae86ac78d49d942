/**
 * The tables' one way to the database (run-statement.ts), on the leg's database (in-memory SQLite, or a fresh
 * MySQL/MariaDB database when DB_URL is set): rows and changed-row counts as TypeORM's query runner gives them, a
 * transaction's statements on its connection (they see its writes and roll back with it), a failure as TypeORM's
 * QueryFailedError; on MySQL/MariaDB a repeated text runs prepared on the pool outside a transaction.
 */
import { Column, DataSource, Entity, PrimaryColumn, QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { createTestDatabase, fixtureDataSource, serverConnection, TestDatabase, usingMysql } from '../../../../../test/support/database';
import { isDuplicateKeyError } from '../db-errors';
import { driverPool } from './driver-pool';
import { changeRows, selectRows, TextReuse } from './run-statement';

@Entity('fixture_pooled')
class Pooled {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  code: string;

  @Column({ type: 'bigint', nullable: true })
  amount: number | null;
}

let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = await fixtureDataSource(database, [Pooled]);
  await dataSource.getRepository(Pooled).insert([
    { code: 'a', amount: 9_007_199_254_740_991 },
    { code: 'b', amount: null },
  ]);
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const q = (name: string) => dataSource.driver.escape(name);
const read = () => `SELECT ${q('code')}, ${q('amount')} FROM ${q('fixture_pooled')} WHERE ${q('code')} IN (?, ?) ORDER BY ${q('code')}`;
const readOne = () => `SELECT ${q('code')}, ${q('amount')} FROM ${q('fixture_pooled')} WHERE ${q('code')} = ?`;
const update = () => `UPDATE ${q('fixture_pooled')} SET ${q('amount')} = ? WHERE ${q('code')} = ?`;
const insert = () => `INSERT INTO ${q('fixture_pooled')} (${q('code')}, ${q('amount')}) VALUES (?, ?)`;
/** The pool's execute (server-side prepared statements), spied on MySQL/MariaDB; undefined on SQLite. */
const poolExecute = () => (usingMysql() ? jest.spyOn(driverPool(dataSource)!, 'execute') : undefined);
const reuses: TextReuse[] = ['repeated', 'once'];

describe.each(reuses)('a %s text', (reuse) => {
  it('reads what TypeORM reads', async () => {
    const rows = await selectRows(dataSource.manager, read(), ['a', 'b'], reuse);
    expect(rows).toEqual(await dataSource.manager.query(read(), ['a', 'b']));
    expect(rows).toEqual([
      { code: 'a', amount: 9_007_199_254_740_991 },
      { code: 'b', amount: null },
    ]);
  });

  it('gives a write its matched rows', async () => {
    expect(await changeRows(dataSource.manager, update(), [null, 'b'], reuse)).toBe(1);
    expect(await changeRows(dataSource.manager, update(), [null, 'none'], reuse)).toBe(0);
  });

  it("binds undefined as NULL, as TypeORM's query runner sends it (mysql2 alone refuses it)", async () => {
    await dataSource.getRepository(Pooled).save({ code: `u-${reuse}`, amount: 7 });
    expect(await changeRows(dataSource.manager, update(), [undefined, `u-${reuse}`], reuse)).toBe(1);
    expect(await dataSource.getRepository(Pooled).findOneBy({ code: `u-${reuse}` })).toEqual({ code: `u-${reuse}`, amount: null });
  });

  it("runs inside a transaction on the transaction's connection: it sees the transaction's writes, and they roll back", async () => {
    const code = `t-${reuse}`;
    const logged = jest.spyOn(dataSource.logger, 'logQuery');
    const seen = await dataSource
      .transaction(async (manager) => {
        await manager.query(insert(), [code, 5]);
        const rows = await selectRows(manager, readOne(), [code], reuse);
        expect(await changeRows(manager, update(), [6, code], reuse)).toBe(1);
        expect(await manager.query(readOne(), [code])).toEqual([{ code, amount: 6 }]);
        throw Object.assign(new Error('roll back'), { rows });
      })
      .catch((error: { rows?: unknown }) => error.rows);
    expect(seen).toEqual([{ code, amount: 5 }]);
    // TypeORM's query log hook sees them, as it sees the runner's own
    expect(logged.mock.calls.map(([sql]) => sql)).toEqual(expect.arrayContaining([readOne(), update()]));
    logged.mockRestore();
    expect(await dataSource.manager.query(readOne(), [code])).toEqual([]);
  });

  it("fails as TypeORM's query runner fails: QueryFailedError with the driver's error and the statement", async () => {
    const error = await changeRows(dataSource.manager, insert(), ['a', 1], reuse).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(error).toMatchObject({ query: insert(), parameters: ['a', 1] });
    expect(isDuplicateKeyError(error)).toBe(true);
  });

  it('runs on a query runner that holds no connection yet (it takes one)', async () => {
    const runner = dataSource.createQueryRunner();
    try {
      expect(await selectRows(runner.manager, readOne(), ['a'], reuse)).toEqual([{ code: 'a', amount: 9_007_199_254_740_991 }]);
    } finally {
      await runner.release();
    }
  });
});

describe('where a statement runs', () => {
  it(
    usingMysql()
      ? 'a repeated text outside a transaction: prepared on the pool; any other: by the query runner'
      : 'on SQLite: by the query runner',
    async () => {
      const execute = poolExecute();
      const runnerQuery = jest.spyOn(dataSource.logger, 'logQuery');
      try {
        await selectRows(dataSource.manager, read(), ['a', 'b'], 'repeated');
        const prepared = execute?.mock.calls.length ?? 0;
        const byRunner = runnerQuery.mock.calls.length;
        await selectRows(dataSource.manager, read(), ['a', 'b'], 'once');
        await dataSource.transaction((manager) => selectRows(manager, read(), ['a', 'b'], 'repeated'));
        expect({ prepared, byRunner }).toEqual(usingMysql() ? { prepared: 1, byRunner: 0 } : { prepared: 0, byRunner: 1 });
        expect(execute?.mock.calls.length ?? 0).toBe(prepared);
      } finally {
        execute?.mockRestore();
        runnerQuery.mockRestore();
      }
    },
  );

  it("refuses a released query runner's statement, as the runner does", async () => {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.release();
    const failures = await Promise.all(reuses.map((reuse) => selectRows(runner.manager, readOne(), ['a'], reuse).catch((e: unknown) => e)));
    const refused = await runner.query(readOne(), ['a']).catch((e: unknown) => e);
    // SQLite's one runner serves on after a release; MySQL's refuses
    expect(failures.map((failure) => failure instanceof QueryRunnerAlreadyReleasedError)).toEqual(
      Array(2).fill(refused instanceof QueryRunnerAlreadyReleasedError),
    );
    expect(refused instanceof QueryRunnerAlreadyReleasedError).toBe(usingMysql());
  });
});

(usingMysql() ? describe : describe.skip)('on MySQL/MariaDB', () => {
  it("runs a repeated text unprepared while the server's cap on prepared statements is reached", async () => {
    const server = await serverConnection();
    const [[{ Value: cap }]] = (await server.query("SHOW GLOBAL VARIABLES LIKE 'max_prepared_stmt_count'")) as unknown as [
      [{ Value: string }],
    ];
    await server.query('SET GLOBAL max_prepared_stmt_count = 0');
    try {
      // a text no connection has prepared yet
      const fresh = read().replace('SELECT', `SELECT /* ${Date.now()} */`);
      expect(await selectRows(dataSource.manager, fresh, ['a', 'b'], 'repeated')).toEqual(
        await dataSource.manager.query(read(), ['a', 'b']),
      );
    } finally {
      await server.query(`SET GLOBAL max_prepared_stmt_count = ${Number(cap)}`);
      await server.end();
    }
  });

  it("keeps the driver's error inside TypeORM's", async () => {
    const error = await changeRows(dataSource.manager, insert(), ['a', 1], 'repeated').catch((e: unknown) => e);
    expect(error).toMatchObject({ driverError: { code: 'ER_DUP_ENTRY' } });
  });
});
