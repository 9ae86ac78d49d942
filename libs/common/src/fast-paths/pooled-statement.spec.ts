/**
 * Statements run by mysql2 directly (pooled-statement.ts), on the leg's database: MySQL/MariaDB only, prepared on the
 * pool outside a transaction and on the transaction's own connection inside one; a failure is TypeORM's
 * QueryFailedError around the driver's error, as the query runner throws it.
 */
import { Column, DataSource, Entity, PrimaryColumn, QueryFailedError } from 'typeorm';
import { createTestDatabase, fixtureDataSource, serverConnection, TestDatabase, usingMysql } from '../../../../test/support/database';
import { isDuplicateKeyError } from '../persistence/db-errors';
import { pooledStatement } from './pooled-statement';

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

const mysqlOnly = usingMysql() ? describe : describe.skip;

describe('pooledStatement', () => {
  it(usingMysql() ? 'is there on MySQL/MariaDB outside a transaction' : 'is not there on SQLite', () => {
    expect(pooledStatement(dataSource.manager) !== undefined).toBe(usingMysql());
  });

  it(usingMysql() ? 'is there inside a transaction' : 'is not there inside a transaction on SQLite', async () => {
    await dataSource.transaction(async (manager) => expect(pooledStatement(manager) !== undefined).toBe(usingMysql()));
  });

  it('is not there for a query runner that holds no connection, before or after', async () => {
    const runner = dataSource.createQueryRunner();
    expect(pooledStatement(runner.manager)).toBeUndefined();
    await runner.query('SELECT 1');
    expect(pooledStatement(runner.manager) !== undefined).toBe(usingMysql());
    await runner.release();
    expect(pooledStatement(runner.manager)).toBeUndefined();
  });
});

mysqlOnly('pooledStatement on MySQL/MariaDB', () => {
  const sql = 'SELECT `code`, `amount` FROM `fixture_pooled` WHERE `code` IN (?, ?) ORDER BY `code`';

  it('reads what TypeORM reads', async () => {
    const pooled = await pooledStatement(dataSource.manager)!(sql, ['a', 'b']);
    expect(pooled).toEqual(await dataSource.manager.query(sql, ['a', 'b']));
    expect(pooled).toEqual([
      { code: 'a', amount: 9_007_199_254_740_991 },
      { code: 'b', amount: null },
    ]);
  });

  it('gives an update its matched rows', async () => {
    const update = 'UPDATE `fixture_pooled` SET `amount` = ? WHERE `code` = ?';
    const result = (await pooledStatement(dataSource.manager)!(update, [null, 'b'])) as { affectedRows: number };
    expect(result.affectedRows).toBe(1);
  });

  it("binds undefined as NULL, as TypeORM's query runner sends it (mysql2 alone refuses it)", async () => {
    await dataSource.getRepository(Pooled).insert({ code: 'u', amount: 7 });
    const update = 'UPDATE `fixture_pooled` SET `amount` = ? WHERE `code` = ?';
    const result = (await pooledStatement(dataSource.manager)!(update, [undefined, 'u'])) as { affectedRows: number };
    expect(result.affectedRows).toBe(1);
    expect(await dataSource.getRepository(Pooled).findOneBy({ code: 'u' })).toEqual({ code: 'u', amount: null });
  });

  it("runs a statement unprepared while the server's cap on prepared statements is reached", async () => {
    const server = await serverConnection();
    const [[{ Value: cap }]] = (await server.query("SHOW GLOBAL VARIABLES LIKE 'max_prepared_stmt_count'")) as unknown as [
      [{ Value: string }],
    ];
    await server.query('SET GLOBAL max_prepared_stmt_count = 0');
    try {
      // a text no connection has prepared yet
      const fresh = sql.replace('SELECT', `SELECT /* ${Date.now()} */`);
      expect(await pooledStatement(dataSource.manager)!(fresh, ['a', 'b'])).toEqual(await dataSource.manager.query(sql, ['a', 'b']));
    } finally {
      await server.query(`SET GLOBAL max_prepared_stmt_count = ${Number(cap)}`);
      await server.end();
    }
  });

  it("runs inside a transaction on the transaction's connection: it sees the transaction's writes, and they roll back", async () => {
    const read = 'SELECT `code`, `amount` FROM `fixture_pooled` WHERE `code` = ?';
    const logged = jest.spyOn(dataSource.logger, 'logQuery');
    const seen = await dataSource
      .transaction(async (manager) => {
        await manager.query('INSERT INTO `fixture_pooled` (`code`, `amount`) VALUES (?, ?)', ['t', 5]);
        const rows = await pooledStatement(manager)!(read, ['t']);
        await pooledStatement(manager)!('UPDATE `fixture_pooled` SET `amount` = ? WHERE `code` = ?', [6, 't']);
        expect(await manager.query(read, ['t'])).toEqual([{ code: 't', amount: 6 }]);
        throw Object.assign(new Error('roll back'), { rows });
      })
      .catch((error: { rows?: unknown }) => error.rows);
    expect(seen).toEqual([{ code: 't', amount: 5 }]);
    // TypeORM's query log hook sees them, as it sees the runner's own
    expect(logged.mock.calls.map(([sql]) => sql)).toEqual(
      expect.arrayContaining([read, 'UPDATE `fixture_pooled` SET `amount` = ? WHERE `code` = ?']),
    );
    logged.mockRestore();
    expect(await dataSource.manager.query(read, ['t'])).toEqual([]);
  });

  it("fails as TypeORM's query runner fails: QueryFailedError with the driver's error and the statement", async () => {
    const insert = 'INSERT INTO `fixture_pooled` (`code`, `amount`) VALUES (?, ?)';
    const error = await pooledStatement(dataSource.manager)!(insert, ['a', 1]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(error).toMatchObject({ query: insert, parameters: ['a', 1], driverError: { code: 'ER_DUP_ENTRY' } });
    expect(isDuplicateKeyError(error)).toBe(true);
  });
});
