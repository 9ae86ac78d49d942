// npm run bench:export: P/export at production size. main-service alone on MariaDB, in a fresh database
// `<name>_<time>`; one tenant with BENCH_ROWS live rows (and a tenth as many logically deleted ones) of
// data-dictionary-table, written by SQL (scale-seed.mjs). Each format (CSV, NDJSON, XLSX) is exported whole, read
// by the client as fast as it comes, and measured: rows/s (from the request to the last byte), the growth of the
// service process's resident memory over its size just before the export (VmRSS, sampled every 50 ms; the peak),
// and /health/live answered meanwhile, asked every 200 ms on a connection of its own (p99 and max). The goals:
// at least 50,000 rows/s, RSS growth under 100 MB, liveness under 100 ms.
//
//   DB_URL         server to use (a database `<name>_<time>` is made and dropped)   default mysql://root@127.0.0.1:3306/bench
//   BENCH_ROWS     live rows of the tenant                                        default 1000000
//   BENCH_FORMATS  formats to export, comma-separated                             default csv,ndjson,xlsx
//   BENCH_KEEP_DB=1  keep the database (its name is printed)
//   BENCH_REUSE_DB   a kept database to export from instead of seeding a new one (it is kept too)
//   BENCH_CPU_PROF   a directory: the service runs with --cpu-prof and writes its profile there when stopped
import { mkdtempSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jwt from 'jsonwebtoken';
import { benchServer } from './lib/databases.mjs';
import { printTable } from './lib/table.mjs';
import { freePort, sleep, startNode, stop } from './lib/processes.mjs';
import { analyze, seed, TABLES } from './scale-seed.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const FORMATS = (process.env.BENCH_FORMATS ?? 'csv,ndjson,xlsx').split(',');
const ACCEPT = {
  csv: 'text/csv',
  ndjson: 'application/x-ndjson',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
const GOALS = { rowsPerSecond: 50_000, rssGrowthMb: 100, livenessMs: 100 };
const TABLE = TABLES.find((table) => table.name === 'data-dictionary-table');
const TENANT = 'big';
const SECRET = 'bench-secret-of-at-least-16-chars';
/** Rows per INSERT ... SELECT of the seed: within the lock table of MariaDB's default buffer pool (128 MB). */
const SEED_CHUNK = 20_000;
const RSS_EVERY_MS = 50;
const LIVENESS_EVERY_MS = 200;
const log = (line) => console.error(`[bench:export] ${line}`);

/** The service's resident set in bytes (VmRSS of /proc/<pid>/status). */
const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/** Runs `sample` every `everyMs` until the returned stop is called; stop resolves once the last sample is in. */
function every(everyMs, sample) {
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      await sample();
      await sleep(Math.max(0, everyMs - (performance.now() - started)));
    }
  })();
  return () => ((running = false), done);
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** The export of the rows `body` filters, read to its end as fast as it comes: its length in bytes. */
async function readWhole(base, token, format, body) {
  const res = await fetch(`${base}${TABLE.path}/export`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json', accept: ACCEPT[format] },
    body: JSON.stringify(body),
  });
  if (!res.headers.get('content-disposition')) throw new Error(`${format}: no file: ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  return bytes;
}

/** The last `export completed` line of `format` in the service's log with `bytes`, waited for up to 5 s (else the last one). */
async function completedLine(logFile, format, bytes) {
  for (let waited = 0; ; waited += 100) {
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"export completed"'))
      .map((l) => JSON.parse(l))
      .filter((l) => l.format === format);
    if (lines.at(-1)?.bytes === bytes || waited >= 5000) return lines.at(-1);
    await sleep(100);
  }
}

/** One export of every live row, read to its end as fast as it comes; its figures. */
async function measure(format, base, token, pid, logFile) {
  const baseline = rssOf(pid);
  let peak = baseline;
  const stopRss = every(RSS_EVERY_MS, () => (peak = Math.max(peak, rssOf(pid))));
  const latencies = [];
  const stopLiveness = every(LIVENESS_EVERY_MS, async () => {
    const started = performance.now();
    const res = await fetch(`${base}/main-service/health/live`);
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
  });
  const started = performance.now();
  const bytes = await readWhole(base, token, format, {});
  const ms = performance.now() - started;
  await stopLiveness();
  await stopRss();
  // the service's own account of the export: its rows and bytes (the file's length checks the bytes); its log
  // line may come a moment after the file's last byte (standard output is written in batches)
  const line = await completedLine(logFile, format, bytes);
  if (!line || line.rows !== ROWS || line.bytes !== bytes)
    throw new Error(`${format}: the service reported ${JSON.stringify(line)}, the client read ${bytes} bytes`);
  latencies.sort((a, b) => a - b);
  return {
    format,
    rowsPerSecond: ROWS / (ms / 1000),
    seconds: ms / 1000,
    megabytes: bytes / 1e6,
    rssGrowthMb: (peak - baseline) / 1024 / 1024,
    baselineMb: baseline / 1024 / 1024,
    livenessP99: quantile(latencies, 0.99),
    livenessMax: latencies[latencies.length - 1],
    probes: latencies.length,
  };
}

/** A new database with the tenant's rows: its name. */
async function seeded(server, env) {
  const database = await server.migrated('', 'main-service', env);
  const db = await server.connect(database);
  const seeding = performance.now();
  await seed(db, TENANT, ROWS, log, { tables: [TABLE], chunk: SEED_CHUNK });
  await analyze(db, [TABLE]);
  await db.end();
  log(`seeded ${ROWS.toLocaleString('en')} rows in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  return database;
}

async function main() {
  const server = await benchServer(process.env.DB_URL ?? 'mysql://root@127.0.0.1:3306/bench', ROOT);
  const env = { ...process.env, JWT_SECRET: SECRET, LOG_LEVEL: 'info', DISPATCH_ENABLED: 'false' };
  delete env.KAFKA_BROKERS;
  let service;
  try {
    const database = process.env.BENCH_REUSE_DB || (await seeded(server, env));
    const port = await freePort();
    const logDir = mkdtempSync(join(tmpdir(), 'bench-export-'));
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    service = await startNode('main-service', [...profile, join(ROOT, 'dist/apps/main-service/src/main.js')], {
      env: { ...env, DB_URL: server.urlOf(database), PORT: String(port) },
      readyUrl: `http://127.0.0.1:${port}/main-service/health/live`,
      logDir,
    });
    const token = `Bearer ${jwt.sign({ sub: 'bench', tenantId: TENANT, roles: ['administrator'] }, SECRET, { expiresIn: 7200 })}`;
    // warmed up first: one export of each format over a filter's 5% of the rows (the code compiled, the pool open)
    for (const format of FORMATS) await readWhole(`http://127.0.0.1:${port}`, token, format, { dataDictionaryTypeCode: 'T7' });
    const results = [];
    for (const format of FORMATS) {
      const loadBefore = loadavg()[0];
      const result = await measure(format, `http://127.0.0.1:${port}`, token, service.pid, join(logDir, 'main-service.log'));
      results.push({ ...result, load: `${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)}` });
      log(`${format}: ${JSON.stringify(results.at(-1))}`);
    }
    const [[{ version }]] = await server.admin.query('SELECT VERSION() AS version');
    const [[{ pool }]] = await server.admin.query('SELECT @@GLOBAL.innodb_buffer_pool_size AS pool');
    console.log(
      `${ROWS.toLocaleString('en')} rows of ${TABLE.name}, MariaDB ${version} (innodb_buffer_pool_size ${Number(pool) / 1024 / 1024} MB), ` +
        `Node ${process.version}, ${cpus().length} × ${cpus()[0].model}`,
    );
    print(results);
  } finally {
    await stop(service);
    await server.close(process.env.BENCH_KEEP_DB === '1');
  }
}

function print(results) {
  const met = (value, goal, below) => ((below ? value < goal : value >= goal) ? 'met' : 'MISSED');
  const header = ['format', 'rows/s', 'seconds', 'MB', 'RSS growth (MB)', 'liveness p99 / max (ms)', 'load avg before / after', 'goals'];
  const rows = results.map((r) => [
    r.format,
    Math.round(r.rowsPerSecond).toLocaleString('en'),
    r.seconds.toFixed(1),
    r.megabytes.toFixed(0),
    `${r.rssGrowthMb.toFixed(1)} (of ${r.baselineMb.toFixed(0)})`,
    `${r.livenessP99.toFixed(1)} / ${r.livenessMax.toFixed(1)} (${r.probes} probes)`,
    r.load,
    [
      `rows/s ${met(r.rowsPerSecond, GOALS.rowsPerSecond)}`,
      `RSS ${met(r.rssGrowthMb, GOALS.rssGrowthMb, true)}`,
      `liveness ${met(r.livenessMax, GOALS.livenessMs, true)}`,
    ].join(', '),
  ]);
  printTable(header, rows);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
