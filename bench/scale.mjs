// npm run bench:scale: whether a tenant with many rows pages as fast as one with few. main-service alone on
// MariaDB, in a fresh database `bench_scale`; one tenant with BENCH_SMALL live rows and one with BENCH_BIG (and a
// tenth as many logically deleted ones each, for the recycle bin's deletedPage and restoreById) in a
// configuration table (data-dictionary-table) and a snapshot table (device-state-snap), written by SQL
// (scale-seed.mjs). Each request is sent BENCH_REPS times in a row over one connection, at both sizes; the
// table gives the medians and their ratio (big ÷ small). Each tenant also has as many history entries as live rows
// of one table (scale-history.mjs), for the history reads. The goal: at most 3x (the last page at most 5x), a page or
// count by one exact filter included (its total is the kept count of that value), and a filter with a sort its
// index holds (first page 3x, page 50 5x); the middle page, and a filter with a sort no index holds, are only reported.
// A request that takes longer than 60 s is reported as "> 60000".
//
//   DB_URL        server to use (the database BENCH_DATABASE is made anew)  default mysql://root@127.0.0.1:3306
//   BENCH_DATABASE  the database to make                                    default bench_scale
//   BENCH_SMALL   rows of the small tenant                                    default 10000
//   BENCH_BIG     rows of the big tenant (10000000 for 10M)                   default 1000000
//   BENCH_REPS    repetitions per request (fewer once a request has taken 20 s in all)   default 11
//   BENCH_KEEP_DB=1  keep the database (and reuse it when its row counts match: no second seeding)
//   BENCH_BUFFER_POOL_MB  InnoDB buffer pool for the run, given back afterwards (0: leave it)   default 8192
//
// A server is sized for its data: 10 million rows and their indexes do not fit MariaDB's default buffer pool
// (128 MB), so the run sets the global innodb_buffer_pool_size (resized online) and restores the value it found.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jwt from 'jsonwebtoken';
import mysql from 'mysql2/promise';
import { printTable } from './lib/table.mjs';
import { freePort, startNode, stop } from './lib/processes.mjs';
import { historyRequests, historySeeded, seedHistory } from './scale-history.mjs';
import { analyze, deletedRows, FILTER_SHARE, idOf, seed, TABLES } from './scale-seed.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = new URL((process.env.DB_URL ?? 'mysql://root@127.0.0.1:3306').replace(/^mariadb:/, 'mysql:'));
const DATABASE = process.env.BENCH_DATABASE ?? 'bench_scale';
const SIZES = { small: Number(process.env.BENCH_SMALL ?? 10_000), big: Number(process.env.BENCH_BIG ?? 1_000_000) };
const REPS = Number(process.env.BENCH_REPS ?? 11);
const BUFFER_POOL_MB = Number(process.env.BENCH_BUFFER_POOL_MB ?? 8192);
const TIMEOUT_MS = 60_000;
const PAGE_SIZE = 10;
/** A filtered, sorted page as a list shows it: 20 rows, the first page and page 50. */
const SORTED_PAGE_SIZE = 20;
const SORTED_PAGE = 50;
const SECRET = 'bench-secret-of-at-least-16-chars';
const log = (line) => console.error(`[bench:scale] ${line}`);

/**
 * The requests of one table at one tenant size: [label, method, operation, body or query, goal]. An operation
 * given as a function is asked for each call (a restore takes a record still in the bin).
 */
function requests(table, rows) {
  const deleted = deletedRows(rows);
  let restored = 0;
  const filters = table.filters(rows);
  const asBody = (name, value) => (typeof value === 'object' ? value : { [name]: value });
  const pages = Math.ceil(rows / PAGE_SIZE);
  const [firstFilter, firstValue] = Object.entries(filters)[0];
  return [
    ['first page', 'POST', 'page', { current: 1, pageSize: PAGE_SIZE }, 3],
    ...Object.entries(filters).map(([name, value]) => [
      `first page, ${name}`,
      'POST',
      'page',
      { current: 1, pageSize: PAGE_SIZE, ...asBody(name, value) },
      3,
    ]),
    ...table.sortable.map((field) => [
      `first page by ${field}`,
      'POST',
      'page',
      { current: 1, pageSize: PAGE_SIZE, sqlQuerySorter: { field, order: 'ascend' } },
      3,
    ]),
    // one exact filter with a sort: the index of the filter holds the order (goal), or it does not (reported)
    // (page 50, or the filter's last page where it has fewer: 25 at 10,000 rows)
    ...table.sortedFilters.flatMap(([name, field, served]) => {
      const sorted = { pageSize: SORTED_PAGE_SIZE, ...asBody(name, filters[name]), sqlQuerySorter: { field, order: 'ascend' } };
      const page = Math.min(SORTED_PAGE, Math.ceil((rows * FILTER_SHARE) / SORTED_PAGE_SIZE));
      return [
        [`first page, ${name}, by ${field}`, 'POST', 'page', { current: 1, ...sorted }, served ? 3 : null],
        [`page ${SORTED_PAGE}, ${name}, by ${field}`, 'POST', 'page', { current: page, ...sorted }, served ? 5 : null],
      ];
    }),
    ['last page', 'POST', 'page', { current: pages, pageSize: PAGE_SIZE }, 5],
    ['middle page', 'POST', 'page', { current: Math.ceil(pages / 2), pageSize: PAGE_SIZE }, null],
    ['count', 'POST', 'count', {}, 3],
    // one exact filter: the kept count of its value (filter_count), however many rows match
    [`count, ${firstFilter}`, 'POST', 'count', asBody(firstFilter, firstValue), 3],
    ['getById', 'GET', `getById?id=${idOf(Math.ceil(rows / 2))}`, null, 3],
    [`list 1000, ${firstFilter}`, 'POST', 'list', { ...asBody(firstFilter, firstValue), sqlQueryLimit: 1000 }, 3],
    // the recycle bin: deletedRows(rows) records, newest deletion first; its total is kept (deleted_count)
    ['recycle bin, first page', 'POST', 'deletedPage', { current: 1, pageSize: PAGE_SIZE }, 3],
    ['recycle bin, last page', 'POST', 'deletedPage', { current: Math.ceil(deleted / PAGE_SIZE), pageSize: PAGE_SIZE }, 5],
    ['restoreById', 'PUT', () => `restoreById?id=${idOf(rows + deleted - restored++)}`, null, 3],
  ];
}

async function timed(url, method, body, token) {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method,
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const answer = await res.json();
    if (answer.status !== 200 || answer.data === false)
      throw new Error(`${method} ${url} ${JSON.stringify(body)} answered ${JSON.stringify(answer).slice(0, 300)}`);
    return performance.now() - started;
  } catch (error) {
    if (error.name === 'TimeoutError') return Infinity;
    throw error;
  }
}

/** The median of up to REPS sequential calls; fewer when they have taken 20 s, one after a timeout. */
async function median(call) {
  const times = [];
  let spent = 0;
  while (times.length < REPS && (times.length < 3 || spent < 20_000)) {
    const ms = await call();
    times.push(ms);
    spent += ms;
    if (ms === Infinity) break;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const shown = (ms) => (ms === Infinity ? `> ${TIMEOUT_MS}` : ms.toFixed(1));

/** Whether the kept database has the rows, the triggers (a seed stopped between dropping and creating them again has not) and their counts. */
async function seeded(db) {
  for (const table of TABLES) {
    const [[{ triggers }]] = await db.query(
      'SELECT COUNT(1) AS triggers FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = ?',
      [table.table],
    );
    if (Number(triggers) === 0) return false;
    for (const [tenant, rows] of Object.entries(SIZES)) {
      const [[{ n }]] = await db.query(`SELECT COUNT(1) AS n FROM ${table.table} WHERE tenant_id = ? AND delete_time = 0`, [tenant]);
      const [[{ live }]] = await db.query('SELECT SUM(live) AS live FROM live_count WHERE table_name = ? AND tenant_id = ?', [
        table.table,
        tenant,
      ]);
      if (Number(n) !== rows || Number(live) !== rows) return false;
    }
  }
  for (const [tenant, entries] of Object.entries(SIZES)) if (!(await historySeeded(db, tenant, entries))) return false;
  return true;
}

/**
 * Runs `measure` with the buffer pool at BUFFER_POOL_MB, and gives the server back the size it had, also when
 * the run is interrupted (Ctrl-C, kill): other work shares the server.
 */
async function withBufferPool(admin, credentials, measure) {
  const [[{ size }]] = await admin.query('SELECT @@GLOBAL.innodb_buffer_pool_size AS size');
  if (!BUFFER_POOL_MB) return measure(Number(size));
  // once, on a connection of its own (the admin connection may be busy), whether interrupted or done
  let restored;
  const restore = () =>
    (restored ??= mysql
      .createConnection(credentials)
      .then((connection) => connection.query('SET GLOBAL innodb_buffer_pool_size = ?', [size]).finally(() => connection.end())));
  const interrupted = async (signal) => {
    log(`${signal}: innodb_buffer_pool_size back to ${Number(size) / 1024 / 1024} MB`);
    await restore();
    process.exit(130);
  };
  await admin.query('SET GLOBAL innodb_buffer_pool_size = ?', [BUFFER_POOL_MB * 1024 * 1024]);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, interrupted);
  try {
    const [[{ resized }]] = await admin.query('SELECT @@GLOBAL.innodb_buffer_pool_size AS resized');
    log(`innodb_buffer_pool_size ${Number(resized) / 1024 / 1024} MB for the run (was ${Number(size) / 1024 / 1024} MB)`);
    return await measure(Number(resized));
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, interrupted);
    await restore();
  }
}

async function main() {
  const credentials = {
    host: SERVER.hostname,
    port: Number(SERVER.port || 3306),
    user: decodeURIComponent(SERVER.username),
    password: decodeURIComponent(SERVER.password),
  };
  const admin = await mysql.createConnection(credentials);
  try {
    const [[{ version }]] = await admin.query('SELECT VERSION() AS version');
    const { results, bufferPool } = await withBufferPool(admin, credentials, async (bufferPool) => ({
      results: await seedAndMeasure(admin, credentials),
      bufferPool,
    }));
    console.log(`MariaDB ${version}, innodb_buffer_pool_size ${bufferPool / 1024 / 1024} MB`);
    print(results);
  } finally {
    await admin.end();
  }
}

/** Seeds `bench_scale` (unless a kept one has the rows), starts main-service on it, and times every request at both sizes. */
async function seedAndMeasure(admin, credentials) {
  const dbUrl = `mysql://${SERVER.username}${SERVER.password ? `:${SERVER.password}` : ''}@${SERVER.host}/${DATABASE}`;
  const env = { ...process.env, DB_URL: dbUrl, JWT_SECRET: SECRET, LOG_LEVEL: 'warn' };
  delete env.KAFKA_BROKERS;
  const [[{ present }]] = await admin.query('SELECT COUNT(1) AS present FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [
    DATABASE,
  ]);
  let db = Number(present) ? await mysql.createConnection({ ...credentials, database: DATABASE }) : null;
  if (!(process.env.BENCH_KEEP_DB === '1' && db && (await seeded(db)))) {
    await db?.end();
    await admin.query(`DROP DATABASE IF EXISTS \`${DATABASE}\``);
    await admin.query(`CREATE DATABASE \`${DATABASE}\``);
    execFileSync(process.execPath, [join(ROOT, 'dist/apps/main-service/src/migrate.js')], { env, stdio: ['ignore', 2, 2] });
    db = await mysql.createConnection({ ...credentials, database: DATABASE });
    for (const [tenant, rows] of Object.entries(SIZES)) await seed(db, tenant, rows, log);
    for (const [tenant, entries] of Object.entries(SIZES)) await seedHistory(db, tenant, entries, log);
    await analyze(db);
  }
  const port = await freePort();
  const server = await startNode('main-service', [join(ROOT, 'dist/apps/main-service/src/main.js')], {
    env: { ...env, PORT: String(port) },
    readyUrl: `http://127.0.0.1:${port}/main-service/health/live`,
    waitSeconds: 600,
  });
  const results = [];
  try {
    const tokens = Object.fromEntries(
      Object.keys(SIZES).map((tenant) => [
        tenant,
        `Bearer ${jwt.sign({ sub: 'bench', tenantId: tenant, roles: ['administrator'] }, SECRET, { expiresIn: 7200 })}`,
      ]),
    );
    // each table's requests (operations under its path), then the history's (whole paths)
    const groups = [
      ...TABLES.map((table) => ({ name: table.name, path: `${table.path}/`, requests: (rows) => requests(table, rows) })),
      { name: 'history', path: '', requests: historyRequests },
    ];
    for (const group of groups) {
      const small = group.requests(SIZES.small);
      const big = group.requests(SIZES.big);
      for (let i = 0; i < small.length; i++) {
        const medians = {};
        for (const [tenant, [, method, operation, body]] of [
          ['small', small[i]],
          ['big', big[i]],
        ]) {
          const url = () => `http://127.0.0.1:${port}${group.path}${typeof operation === 'function' ? operation() : operation}`;
          medians[tenant] = await median(() => timed(url(), method, body, tokens[tenant]));
        }
        const [label, , , , goal] = small[i];
        const ratio = medians.big / medians.small;
        results.push({ table: group.name, label, ...medians, ratio, goal });
        log(`${group.name} ${label}: ${shown(medians.small)} / ${shown(medians.big)} ms`);
      }
    }
  } finally {
    await stop(server);
    if (process.env.BENCH_KEEP_DB !== '1') await admin.query(`DROP DATABASE IF EXISTS \`${DATABASE}\``);
    await db.end();
  }
  return results;
}

function print(results) {
  const [small, big] = [SIZES.small, SIZES.big].map((n) => n.toLocaleString('en'));
  const header = ['table', 'request', `${small} rows (ms)`, `${big} rows (ms)`, 'ratio', 'goal'];
  const rows = results.map((r) => [
    r.table,
    r.label,
    shown(r.small),
    shown(r.big),
    Number.isFinite(r.ratio) ? `${r.ratio.toFixed(1)}x` : '-',
    r.goal === null ? 'reported' : r.ratio <= r.goal ? `<= ${r.goal}x: met` : `<= ${r.goal}x: MISSED`,
  ]);
  printTable(header, rows);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
