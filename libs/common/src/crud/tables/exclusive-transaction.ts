import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * Transactions that give the event loop a turn between statements.
 *
 * On MySQL/MariaDB each transaction has its own pooled connection, so a long one may pause freely.
 * better-sqlite3 runs every statement of the process on ONE connection: a transaction that paused would
 * take in the statements of whatever request ran meanwhile (their writes would commit or roll back with
 * it, and their own BEGIN would nest inside it). So on SQLite such a transaction is made exclusive, as
 * SQLite's single writer lock would be with separate connections: while it is open, statements and
 * transactions started from outside it wait (they are queued, not refused) until it ends.
 */

interface Gate {
  runner: QueryRunner;
  /** Settles when the exclusive transaction in progress ends; null while none is. */
  busy: Promise<void> | null;
  /** The token of the exclusive transaction in progress (a fresh one each time, so work it left running can't pass later). */
  owner: object | null;
}

const gates = new WeakMap<QueryRunner, Gate>();
/** The token of the exclusive transaction the current async context runs in. */
const holder = new AsyncLocalStorage<object>();

const holds = (gate: Gate) => gate.owner !== null && holder.getStore() === gate.owner;

const isSqlite = (dataSource: DataSource) => dataSource.options.type === 'better-sqlite3';

/** True where work inside the current transaction may pause without letting other requests' statements into it. */
export function mayPauseInTransaction(dataSource: DataSource): boolean {
  return !isSqlite(dataSource) || holds(gateOf(dataSource));
}

/** dataSource.transaction(work), exclusive on SQLite so that `work` may pause between statements. */
export async function exclusiveTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (!isSqlite(dataSource)) return dataSource.transaction(work);
  const gate = gateOf(dataSource);
  if (holds(gate)) return dataSource.transaction(work); // nested: a savepoint inside the held one
  // wait for the exclusive transaction in progress, and for a transaction another caller has open
  // (those never pause on purpose, so a short poll is enough)
  while (gate.busy || gate.runner.isTransactionActive) await (gate.busy ?? sleep(1));
  let release!: () => void;
  gate.busy = new Promise((resolve) => (release = resolve));
  const token = {};
  gate.owner = token;
  try {
    return await holder.run(token, () => dataSource.transaction(work));
  } finally {
    gate.owner = null;
    gate.busy = null;
    release();
  }
}

/**
 * The connection's one query runner, with `query` and `startTransaction` queued while another context
 * holds the gate. The check and the original call happen in the same tick, so no statement can slip
 * in between a free gate and its use. Queued callers resume one per turn of the event loop, as their
 * requests arrived: resumed together, their own transactions would interleave statement by statement
 * on the one connection (a BEGIN nested in another's, a COMMIT of someone else's work).
 */
function gateOf(dataSource: DataSource): Gate {
  const runner = dataSource.driver.createQueryRunner('master'); // better-sqlite3: always the same one
  const existing = gates.get(runner);
  if (existing) return existing;
  const gate: Gate = { runner, busy: null, owner: null };
  for (const method of ['query', 'startTransaction'] as const) {
    const original = gate.runner[method].bind(gate.runner) as (...args: unknown[]) => Promise<unknown>;
    const gated = (...args: unknown[]): Promise<unknown> =>
      !gate.busy || holds(gate) ? original(...args) : gate.busy.then(() => nextTurn()).then(() => gated(...args));
    (gate.runner as unknown as Record<string, unknown>)[method] = gated;
  }
  gates.set(runner, gate);
  return gate;
}
