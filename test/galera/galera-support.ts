/**
 * The Galera suite's cluster: scripts/galera.sh's three nodes (GALERA_HOSTS, their client ports in order) and two
 * main-service instances of this process on one shared database, A on node 1 and B on node 2, each with DB_HOSTS
 * naming all three. The suite runs only with GALERA_HOSTS and DB_URL (on node 1) set (the galera leg of .ci/run).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { Cluster } from '../cluster/cluster-support';
import { createTestDatabase, TestDatabase } from '../support/database';
import { listenOnLoopback, startApp, TestApp } from '../support/test-app';
import { TEST_JWT_SECRET } from '../support/tokens';

export const GALERA_HOSTS = process.env.GALERA_HOSTS ?? '';
export const nodes = GALERA_HOSTS.split(',').filter(Boolean);

/** describe for the Galera suite: skipped without a cluster. */
export function describeGalera(name: string, suite: () => void): void {
  if (!GALERA_HOSTS || !process.env.DB_URL) return describe.skip(name, suite);
  describe(name, suite);
}

/** scripts/galera.sh with its arguments (kill N, rejoin N, status). */
export async function galera(...args: string[]): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(join(__dirname, '../../scripts/galera.sh'), args, { timeout: 180_000 });
  return `${stdout}${stderr}`;
}

export interface GaleraApps {
  database: TestDatabase;
  /** The database's name, the same on every node. */
  name: string;
  a: TestApp;
  b: TestApp;
  /** The two instances as the storm helpers see a cluster (A doubles as the "gateway"). */
  cluster: Cluster;
  /** Both instances stopped (nothing writes any more: leases, the outbox relay); the database stays. */
  stopApps(): Promise<void>;
  close(): Promise<void>;
}

/** The database on node `n` (1-based) as a mysql: URL. */
export const nodeUrl = (n: number, name: string): string => `mysql://root@${nodes[n - 1]}/${name}`;

/** A on node 1 (runs the migrations there, as the deployment's migration job would), then B on node 2. */
export async function startGaleraApps(): Promise<GaleraApps> {
  const database = await createTestDatabase();
  const name = new URL(database.env.DB_URL).pathname.slice(1);
  const env = { DB_HOSTS: GALERA_HOSTS, LOG_LEVEL: 'error', DB_POOL_SIZE: '12' };
  const a = await startApp({ ...env, DB_URL: nodeUrl(1, name) }, { shared: database });
  const b = await startApp({ ...env, DB_URL: nodeUrl(2, name) }, { shared: database, skipMigrations: true });
  const [baseA, baseB] = [await listenOnLoopback(a), await listenOnLoopback(b)];
  let stopped = false;
  const cluster: Cluster = {
    gateway: baseA,
    main: [baseA, baseB],
    device: [],
    jwtSecret: TEST_JWT_SECRET,
    kafka: false,
    mainDatabase: nodeUrl(1, name),
  };
  return {
    database,
    name,
    a,
    b,
    cluster,
    stopApps: async () => {
      if (stopped) return;
      stopped = true;
      await Promise.allSettled([a.close(), b.close()]);
    },
    close: async () => {
      if (!stopped) await Promise.allSettled([a.close(), b.close()]);
      stopped = true;
      await database.drop();
    },
  };
}

/** CHECKSUM TABLE of every table of the database on node `n`. */
export async function checksums(n: number, name: string): Promise<Record<string, string>> {
  const connection = await createConnection(nodeUrl(n, name));
  try {
    const [tables] = (await connection.query(
      "SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY 1",
    )) as unknown as [{ t: string }[]];
    const [rows] = (await connection.query(`CHECKSUM TABLE ${tables.map(({ t }) => `\`${t}\``).join(', ')}`)) as unknown as [
      { Table: string; Checksum: string | number | null }[],
    ];
    return Object.fromEntries(rows.map((row) => [row.Table.split('.').pop()!, String(row.Checksum)]));
  } finally {
    await connection.end();
  }
}

/** Waits until node `n` has applied every write the cluster committed (a causal read), then returns. */
export async function caughtUp(n: number, name: string): Promise<void> {
  const connection = await createConnection(nodeUrl(n, name));
  try {
    await connection.query('SET SESSION wsrep_sync_wait = 15');
    await connection.query('SELECT 1');
  } finally {
    await connection.end();
  }
}

/**
 * On node `n`: where `table`'s deleted count and its counts of each of `filterColumns`' values differ from its rows,
 * as `<count> <tenant> [<value>]: kept - rows = d` (read in one snapshot; empty when every count is exact).
 */
export async function tableCountMismatches(n: number, name: string, table: string, filterColumns: string[]): Promise<string[]> {
  const connection = await createConnection(nodeUrl(n, name));
  const difference = new Map<string, number>();
  const add = async (count: string, sql: string, sign: 1 | -1, values: unknown[] = []) => {
    const [rows] = (await connection.query(sql, values)) as unknown as [{ k: string; n: string | number }[]];
    for (const row of rows) difference.set(`${count} ${row.k}`, (difference.get(`${count} ${row.k}`) ?? 0) + sign * Number(row.n));
  };
  try {
    await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    await add('deleted', 'SELECT tenant_id AS k, SUM(deleted) AS n FROM deleted_count WHERE table_name = ? GROUP BY 1', 1, [table]);
    await add('deleted', `SELECT tenant_id AS k, COUNT(*) AS n FROM \`${table}\` WHERE delete_time <> 0 GROUP BY 1`, -1);
    for (const column of filterColumns) {
      await add(
        column,
        "SELECT CONCAT(tenant_id, ' ', value) AS k, SUM(live) AS n FROM filter_count WHERE table_name = ? AND field = ? GROUP BY 1",
        1,
        [table, column],
      );
      await add(
        column,
        `SELECT CONCAT(tenant_id, ' ', \`${column}\`) AS k, COUNT(*) AS n FROM \`${table}\` WHERE delete_time = 0 AND \`${column}\` IS NOT NULL GROUP BY 1`,
        -1,
      );
    }
    await connection.query('COMMIT');
  } finally {
    await connection.end();
  }
  return [...difference].filter(([, d]) => d !== 0).map(([key, d]) => `${key}: kept - rows = ${d}`);
}
