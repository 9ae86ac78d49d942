import { QueryRunner } from 'typeorm';

/** What one catch-up statement brings up to a table's rows: one counter kept by that table's triggers (a record table's counts, record_history's). */
export interface CountedByTriggers {
  /** The counter table, and its column that holds the count. */
  counter: string;
  amount: string;
  /** The table whose rows are counted. */
  table: string;
  /** Counter columns fixed for this count (the counted table's name, a filter count's `field`), with their SQL values. */
  fixed: { column: string; value: string }[];
  /** The counter's key columns besides the fixed ones, each with the rows' SQL expression for it. */
  key: { column: string; rows: string }[];
  /** Which of the table's rows count. */
  rowsCounted: string;
  /** Added to the counter row's update besides the count (the live counts' `writes`, a version that only goes up). */
  alsoOnUpdate?: { column: string; value: string; update: string };
}

/** The slot a catch-up adds to: triggers write slot 0 only where @@server_id % 64 is 0 (live-count-sql.ts). */
const CATCH_UP_SLOT = 0;

/**
 * The INSERT ... SELECT that adds to each key what its counter rows lack against the table's rows. Both sides are
 * read by this one statement, so in one read view (under READ COMMITTED each statement has its own, and reads the
 * rows without locking them): a write committed before that view is in both and cancels out, one committed after it
 * is in neither and its trigger's addition lands on top, so the sum is exact with writers running. Keys whose count
 * is already right are left alone.
 */
export function catchUpStatement(count: CountedByTriggers): string {
  const { counter, amount, table, fixed, key } = count;
  const keys = key.map((k) => k.column).join(', ');
  const extra = count.alsoOnUpdate;
  const columns = [...fixed.map((f) => f.column), ...key.map((k) => k.column), 'slot', amount, ...(extra ? [extra.column] : [])];
  const values = [...fixed.map((f) => f.value), keys, String(CATCH_UP_SLOT), `SUM(seen) - SUM(counted)`, ...(extra ? [extra.value] : [])];
  const counterWhere = fixed.length ? `WHERE ${fixed.map((f) => `${f.column} = ${f.value}`).join(' AND ')} ` : '';
  return (
    `INSERT INTO ${counter} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM (` +
    `SELECT ${key.map((k) => `${k.rows} AS ${k.column}`).join(', ')}, COUNT(1) AS seen, 0 AS counted FROM \`${table}\` ` +
    `WHERE ${count.rowsCounted} GROUP BY ${key.map((k) => k.rows).join(', ')} ` +
    `UNION ALL SELECT ${keys}, 0, SUM(${amount}) FROM ${counter} ${counterWhere}GROUP BY ${keys}` +
    `) AS seen GROUP BY ${keys} HAVING SUM(seen) <> SUM(counted) ` +
    `ON DUPLICATE KEY UPDATE ${amount} = ${amount} + VALUES(${amount})${extra ? `, ${extra.column} = ${extra.update}` : ''}`
  );
}

/**
 * MySQL/MariaDB: each count brought up to its table's rows after its triggers were made (catchUpStatement), one
 * statement each, with no table locked: writers go on meanwhile, on this server or on any node of a Galera cluster
 * (a row and its trigger's addition replicate in one write set, so a node's read view holds both or neither),
 * where LOCK TABLES would hold one node's writers only. Runs where no transaction is open (after the CREATE
 * TRIGGER statements' implicit commit), as SET TRANSACTION names the next transaction's isolation.
 */
export async function catchUpCounts(queryRunner: QueryRunner, counts: CountedByTriggers[]): Promise<void> {
  for (const count of counts) {
    await queryRunner.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
    await queryRunner.query(catchUpStatement(count));
  }
}
