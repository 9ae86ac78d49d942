import { DataSource, EntityManager } from 'typeorm';
import { exclusiveTransaction } from './exclusive-transaction';
import { isMysqlFamily } from '../../persistence/upsert-sql';
import { changeRows } from '../../persistence/sql/run-statement';

/**
 * Runs reads that make one answer (a page's total and its rows, a version and the count it guards) in one read
 * view, so that no write committed between two of them shows in one and not the other.
 *
 * MySQL/MariaDB: one pooled connection in a read-only transaction that takes its snapshot at once (InnoDB's
 * consistent read, under the server's default REPEATABLE READ). SQLite: a transaction that no other request's
 * statement enters (exclusive-transaction.ts), since every statement of the process shares one connection.
 */
export async function readSnapshot<T>(dataSource: DataSource, reads: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (!isMysqlFamily(dataSource)) return exclusiveTransaction(dataSource, reads);
  const runner = dataSource.createQueryRunner();
  // the transaction's own statements on the runner's connection, as its reads run (sql/run-statement.ts)
  const send = (sql: string) => changeRows(runner.manager, sql, [], 'once');
  try {
    await send('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    try {
      const result = await reads(runner.manager);
      await send('COMMIT');
      return result;
    } catch (error) {
      await send('ROLLBACK').catch(() => undefined); // the connection is released either way
      throw error;
    }
  } finally {
    await runner.release();
  }
}
