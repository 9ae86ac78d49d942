/**
 * How requests share the MySQL/MariaDB pool with background work (request-connections.ts): requests hold at most the
 * pool less its reserve, wait for a connection a bounded time and are then refused for load, get none once their
 * client has gone, and never take the reserve, which background work (no open ticket) always finds. On a real pool:
 * the MySQL/MariaDB leg only (DB_URL set); SQLite has one connection and no pool to share.
 */
import * as mysql2 from 'mysql2';
import type { Pool, PoolConnection } from 'mysql2';
import { createTestDatabase, TestDatabase, usingMysql } from '../../../../test/support/database';
import { ClientGoneError, ConnectionWaitExpired } from '../overload/busy';
import { setTicket } from '../overload/request-ticket';
import { RequestContext } from '../tenancy/request-context';
import { shareConnections } from './request-connections';

const WAIT_MS = 300;

/** A request's ticket as admission keeps it: open from admission to its end, gone when its client left (`leave`). */
class Ticket {
  open = true;
  gone = false;
  private listeners: (() => void)[] = [];
  whenGone(listener: () => void): void {
    if (this.gone) listener();
    else this.listeners.push(listener);
  }
  leaveInFlightLimit(): void {}
  leave(): void {
    this.gone = true;
    this.open = false;
    for (const listener of this.listeners.splice(0)) listener();
  }
}
const ticket = () => new Ticket();

(usingMysql() ? describe : describe.skip)('requests sharing the pool (MySQL/MariaDB)', () => {
  let database: TestDatabase;
  let pool: Pool;
  const held: PoolConnection[] = [];

  /** A connection as a statement of the request with `t` (undefined: background work) asks for it. */
  const connect = (t?: Ticket): Promise<PoolConnection> =>
    new Promise((resolve, reject) => {
      const ask = () => pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection)));
      if (!t) return ask();
      const request = {};
      setTicket(request, t);
      RequestContext.run(ask, request);
    });
  const keep = async (t?: Ticket) => {
    const connection = await connect(t);
    held.push(connection);
    return connection;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const url = new URL(database.env.DB_URL);
    // three connections, one kept from requests: two for them
    pool = mysql2.createPool({ uri: url.toString(), connectionLimit: 3 });
    shareConnections(pool, { reserved: 1, waitMs: WAIT_MS, retryAfterSeconds: 1 });
  });

  afterEach(() => {
    for (const connection of held.splice(0)) connection.release();
  });

  afterAll(async () => {
    await new Promise((resolve) => pool?.end(resolve));
    await database?.drop();
  });

  it('lets requests hold the pool less its reserve; the next waits its bounded time and is refused for load', async () => {
    await keep(ticket());
    await keep(ticket());
    const started = Date.now();
    const refused = await connect(ticket()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConnectionWaitExpired);
    expect((refused as ConnectionWaitExpired).retryAfterSeconds).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 20);
  });

  it('keeps the reserve for background work while requests hold the rest', async () => {
    await keep(ticket());
    await keep(ticket());
    const background = await keep();
    const [rows] = await background.promise().query('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('hands a connection given back to the request that waits for one', async () => {
    const first = await keep(ticket());
    await keep(ticket());
    const waiting = connect(ticket());
    setTimeout(() => first.release(), 50);
    const connection = await waiting;
    held.splice(held.indexOf(first), 1);
    held.push(connection);
    expect(connection).toBe(first);
  });

  it('gives nothing to a request whose client has gone, waiting or not, and keeps no count for it', async () => {
    const gone = ticket();
    gone.gone = true;
    await expect(connect(gone)).rejects.toBeInstanceOf(ClientGoneError);
    await keep(ticket());
    await keep(ticket());
    const leaving = ticket();
    const waiting = connect(leaving).catch((error: unknown) => error);
    leaving.leave();
    held.shift()!.release();
    expect(await waiting).toBeInstanceOf(ClientGoneError);
    // the place given back went to nobody: it is free for the next request
    await keep(ticket());
  });

  it('counts a broken connection out: a request connection destroyed frees its place', async () => {
    const broken = await connect(ticket());
    await keep(ticket());
    broken.destroy();
    await keep(ticket());
  });

  it('treats work after its request ended as background: it may use the reserve', async () => {
    await keep(ticket());
    await keep(ticket());
    const ended = ticket();
    ended.open = false;
    await keep(ended);
  });

  it('cancels the statement a request still runs once its client has left (MariaDB)', async () => {
    const background = await keep();
    const [[{ version }]] = (await background.promise().query('SELECT VERSION() AS version')) as unknown as [[{ version: string }]];
    if (!/mariadb/i.test(version)) return; // MySQL has no KILL QUERY ID: its statement runs on to its deadline
    const leaving = ticket();
    const connection = await keep(leaving);
    const started = Date.now();
    const sleeping = connection.promise().query('SELECT SLEEP(5) AS slept');
    setTimeout(() => leaving.leave(), 50);
    const outcome = await sleeping.then(
      ([rows]) => rows,
      (error: { errno?: number }) => error.errno,
    );
    // MariaDB answers a SLEEP it interrupted with 1 (or the interruption's error, 1317), long before its 5 s
    expect([[{ slept: 1 }], 1317]).toContainEqual(outcome);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
