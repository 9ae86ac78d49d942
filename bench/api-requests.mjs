// npm run bench:api: request throughput and latency of the standard CRUD operations of one resource
// (main-api/snapshot/device-state-snap) on MariaDB, measured over HTTP with autocannon against the
// built main-service alone (LOG_LEVEL=warn, metrics on), plus the service's CPU time per request.
//
//   DB_URL              server to use (a fresh database `<name>_<time>` is created and dropped)   default mysql://root@127.0.0.1:3306/bench
//   BENCH_SEED_ROWS     rows of the measured tenant, inserted directly with multi-row INSERTs   default 100000
//   BENCH_OTHER_ROWS    rows of a second tenant in the same table                              default 20000
//   BENCH_SECONDS       measured seconds per operation                                        default 10
//   BENCH_WARMUP_SECONDS warm-up seconds per operation (not counted)                           default 2
//   BENCH_CONNECTIONS   concurrent HTTP connections (keep-alive, no pipelining)                default 10
//   BENCH_ONLY          comma-separated operation names to run (default: all)
//   BENCH_KEEP_DB=1     keep the database afterwards (to EXPLAIN the queries); it is dropped otherwise
//   BENCH_SERVICE_ARGS  extra node arguments of the service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
//   BENCH_JSON=1        also print the results as one JSON line
//
// Every response is checked: any non-2xx, connection error, timeout or envelope `status` other than 200
// (or a `data` of null/false where a record/true is due) fails the run with the first offending body.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import jwt from 'jsonwebtoken';
import mysql from 'mysql2/promise';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BASE_URL = process.env.DB_URL ?? 'mysql://root@127.0.0.1:3306/bench';
const SEED_ROWS = Number(process.env.BENCH_SEED_ROWS ?? 100_000);
const OTHER_ROWS = Number(process.env.BENCH_OTHER_ROWS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SERVICE_ARGS = (process.env.BENCH_SERVICE_ARGS ?? '').split(' ').filter(Boolean);
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((s) => s.trim()) : null;
const SECRET = 'bench-secret-of-at-least-16-chars';
const TENANT = 'bench';
const OTHER_TENANT = 'bench-other';
const PATH = '/main-service/main-api/snapshot/device-state-snap';
const TABLE = 'snapshot_device_state_snap';
const DEVICE_TYPES = ['DATA_ACQUISITION_DEVICE', 'DATA_ACQUISITION_SERVER', 'DATA_ACQUISITION_BOX', 'FINGERPRINT_SCANNER', 'NFC_READER'];
const STATES = ['ONLINE', 'OFFLINE', 'BUSY', 'CHARGING', 'FAULT'];
const DEVICES = 1000;
const T0 = Date.UTC(2026, 0, 1);
const STEP = 60_000; // one snapshot per minute per tenant: 100,000 rows span ~69 days
const WEEK = 7 * 24 * 3_600_000;
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pick = (array) => array[Math.floor(Math.random() * array.length)];

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 21 characters [0-9A-Za-z], like the service's own ids. */
const newId = () => {
  const bytes = randomBytes(21);
  let id = '';
  for (let i = 0; i < 21; i++) id += ALPHABET[bytes[i] % 62];
  return id;
};

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** utime + stime of a process in clock ticks (/proc/<pid>/stat fields 14 and 15). */
const cpuTicks = (pid) => {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
};
const databasePid = () => {
  for (const name of ['mariadbd', 'mysqld']) {
    try {
      return Number(execFileSync('pgrep', ['-x', '-o', name]).toString().trim()) || null;
    } catch {
      /* not this name */
    }
  }
  return null;
};

/** Columns of the table, in the order of the rows built by `seedRow`. */
const COLUMNS = [
  'tenant_id',
  'revision',
  'created_username',
  'created_time',
  'last_modified_username',
  'last_modified_time',
  'delete_time',
  'snap_time',
  'device_state_snap_id',
  'device_no',
  'device_type',
  'state',
  'battery_level',
  'signal_strength',
  'detail',
];
const seedRow = (tenant, i, id) => {
  const created = T0 + i * STEP;
  return [
    tenant,
    1,
    'seed',
    created,
    'seed',
    created,
    0,
    created,
    id,
    `DEV-${String(i % DEVICES).padStart(4, '0')}`,
    DEVICE_TYPES[i % 5],
    STATES[Math.floor(i / 7) % 5],
    i % 101,
    (i * 7) % 101,
    `firmware 2.4.${i % 10}; storage ${i % 100}% used`,
  ];
};

async function seed(db, tenant, rows) {
  const ids = [];
  const chunk = 2_000;
  for (let start = 0; start < rows; start += chunk) {
    const values = [];
    for (let i = start; i < Math.min(rows, start + chunk); i++) {
      const id = newId();
      ids.push(id);
      values.push(seedRow(tenant, i, id));
    }
    await db.query(`INSERT INTO \`${TABLE}\` (${COLUMNS.map((c) => `\`${c}\``).join(', ')}) VALUES ?`, [values]);
  }
  return ids;
}

async function main() {
  const url = new URL(BASE_URL.replace(/^mariadb:/, 'mysql:'));
  const stamp = Date.now().toString(36);
  const dbName = `${url.pathname.slice(1)}_${stamp}`;
  const admin = await mysql.createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  });
  await admin.query(`CREATE DATABASE \`${dbName}\``);
  const dbUrl = `mysql://${url.username}${url.password ? `:${url.password}` : ''}@${url.host}/${dbName}`;
  const port = await freePort();
  const env = { ...process.env, DB_URL: dbUrl, PORT: String(port), JWT_SECRET: SECRET, LOG_LEVEL: 'warn' };
  delete env.KAFKA_BROKERS; // the service alone: no broker needed for the CRUD operations
  let server;
  try {
    execFileSync(process.execPath, [join(ROOT, 'dist/apps/main-service/src/migrate.js')], { env, stdio: 'ignore' });

    const seeding = performance.now();
    await admin.query(`USE \`${dbName}\``);
    const ids = await seed(admin, TENANT, SEED_ROWS);
    await seed(admin, OTHER_TENANT, OTHER_ROWS);
    await admin.query(`ANALYZE TABLE \`${TABLE}\``);
    console.log(
      `seeded ${SEED_ROWS} + ${OTHER_ROWS} (other tenant) rows of ${TABLE} in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );

    server = spawn(process.execPath, [...SERVICE_ARGS, join(ROOT, 'dist/apps/main-service/src/main.js')], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const origin = `http://127.0.0.1:${port}`;
    const token = `Bearer ${jwt.sign({ sub: 'bench', tenantId: TENANT, roles: ['administrator'] }, SECRET, { expiresIn: 3600 })}`;
    const headers = { authorization: token, 'content-type': 'application/json' };
    for (let i = 0; ; i++) {
      if ((await fetch(`${origin}/main-service/v3/api-docs`).catch(() => null))?.ok) break;
      if (i > 120) throw new Error('main-service did not start');
      await sleep(500);
    }
    const call = async (method, path, body) => {
      const res = await fetch(`${origin}${PATH}/${path}`, { method, headers, body: body && JSON.stringify(body) });
      return res.json();
    };

    // What every request of an operation sends, and what its answer must hold.
    const maxSnap = T0 + (SEED_ROWS - 1) * STEP;
    const weekStart = () => T0 + Math.floor(Math.random() * Math.max(1, maxSnap - T0 - WEEK));
    let saved = 0;
    let updated = 0;
    const envelopeOk = (body) => body.startsWith('{"timestamp":') && body.includes('"status":200,');
    const operations = [
      {
        name: 'page',
        what: 'POST page {current 1..50, pageSize 20}, default sort snapTime desc',
        method: 'POST',
        path: 'page',
        body: () => ({ current: 1 + Math.floor(Math.random() * 50), pageSize: 20 }),
        ok: (b) => envelopeOk(b) && b.includes('"data":[{') && /"total":[1-9]/.test(b),
      },
      {
        name: 'page-filter',
        what: 'POST page {state, snapTimeStart/End one week, pageSize 20}',
        method: 'POST',
        path: 'page',
        body: () => {
          const start = weekStart();
          return { current: 1, pageSize: 20, state: pick(STATES), snapTimeStart: start, snapTimeEnd: start + WEEK - 1 };
        },
        ok: (b) => envelopeOk(b) && /"total":[1-9]/.test(b),
      },
      {
        name: 'getById',
        what: 'GET getById?id=<random seeded id>',
        method: 'GET',
        path: () => `getById?id=${pick(ids)}`,
        ok: (b) => envelopeOk(b) && b.includes('"deviceStateSnapId":'),
      },
      {
        name: 'count',
        what: 'POST count {deviceType}',
        method: 'POST',
        path: 'count',
        body: () => ({ deviceType: pick(DEVICE_TYPES) }),
        ok: (b) => envelopeOk(b) && /"data":[1-9]/.test(b),
      },
      {
        name: 'save',
        what: 'POST save, a new body per request',
        method: 'POST',
        path: 'save',
        body: () => {
          const n = ++saved;
          return {
            deviceNo: `NEW-${n}`,
            deviceType: pick(DEVICE_TYPES),
            state: pick(STATES),
            batteryLevel: n % 101,
            signalStrength: (n * 3) % 101,
            detail: `bench save ${n}`,
            snapTime: maxSnap + n,
          };
        },
        ok: (b) => envelopeOk(b) && b.includes('"data":true'),
      },
      {
        name: 'updateById',
        what: 'PUT updateById {id of a random seeded row, detail}',
        method: 'PUT',
        path: 'updateById',
        body: () => ({ deviceStateSnapId: pick(ids), detail: `bench update ${++updated}` }),
        ok: (b) => envelopeOk(b) && b.includes('"data":true'),
      },
    ].filter((op) => !ONLY || ONLY.includes(op.name));

    // Sample-check each operation once with fetch before loading it (shape and meaning, not just status).
    const first = await call('POST', 'page', { current: 1, pageSize: 20 });
    if (first.status !== 200 || first.data?.length !== 20 || first.extraData?.total !== SEED_ROWS || first.data[0].snapTime !== maxSnap)
      throw new Error(`page sample: ${JSON.stringify(first).slice(0, 400)}`);
    const byId = await call('GET', `getById?id=${ids[5]}`);
    if (byId.status !== 200 || byId.data?.deviceStateSnapId !== ids[5] || byId.data.deleteTime !== null)
      throw new Error(`getById sample: ${JSON.stringify(byId).slice(0, 400)}`);
    const counted = await call('POST', 'count', { deviceType: DEVICE_TYPES[0] });
    if (counted.status !== 200 || counted.data !== Math.ceil(SEED_ROWS / 5))
      throw new Error(`count sample: ${JSON.stringify(counted).slice(0, 400)}`);

    const serverPid = server.pid;
    const dbPid = databasePid();
    const idle0 = cpuTicks(serverPid);
    await sleep(3_000);
    const idleMsPerS = (((cpuTicks(serverPid) - idle0) / CLK_TCK) * 1000) / 3;
    const runPhase = (op, duration, onBad) =>
      autocannon({
        url: origin,
        connections: CONNECTIONS,
        duration,
        timeout: 10,
        headers,
        requests: [
          {
            method: op.method,
            setupRequest: (req) => ({
              ...req,
              path: `${PATH}/${typeof op.path === 'function' ? op.path() : op.path}`,
              ...(op.body ? { body: JSON.stringify(op.body()) } : {}),
            }),
          },
        ],
        verifyBody: (body) => {
          if (op.ok(body)) return true;
          onBad(body);
          return false;
        },
      });

    console.log(
      `\nCRUD request throughput, MariaDB, main-service alone (LOG_LEVEL=warn), resource device-state-snap with ${SEED_ROWS} rows ` +
        `(+${OTHER_ROWS} of another tenant); autocannon ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per operation\n`,
    );
    const header = [
      'operation',
      'req/s',
      'p50 ms',
      'p97.5 ms',
      'p99 ms',
      'max ms',
      'non-2xx',
      'bad body',
      'API CPU µs/req',
      'DB CPU µs/req',
      'load gen µs/req',
    ];
    const widths = [12, 7, 7, 9, 7, 7, 8, 9, 15, 14, 16];
    const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' ');
    console.log(`service CPU while idle: ${idleMsPerS.toFixed(0)} ms/s (included in the per-request figures below)`);
    console.log(line(header));
    const results = [];
    for (const op of operations) {
      let badBody = null;
      const onBad = (body) => (badBody ??= body);
      if (WARMUP_SECONDS > 0) {
        const warm = await runPhase(op, WARMUP_SECONDS, onBad);
        if (badBody || warm.non2xx || warm.errors)
          throw new Error(
            `${op.name} warm-up: non2xx ${warm.non2xx}, errors ${warm.errors}, first bad body: ${String(badBody).slice(0, 400)}`,
          );
      }
      const api0 = cpuTicks(serverPid);
      const db0 = cpuTicks(dbPid);
      const gen0 = process.cpuUsage();
      const r = await runPhase(op, SECONDS, onBad);
      const gen = process.cpuUsage(gen0);
      const done = r.requests.total;
      const perReq = (ticks) => (done ? Math.round(((ticks / CLK_TCK) * 1e6) / done) : 0);
      const row = {
        operation: op.name,
        what: op.what,
        rps: Math.round(done / r.duration),
        p50: r.latency.p50,
        p97_5: r.latency.p97_5,
        p99: r.latency.p99,
        max: r.latency.max,
        non2xx: r.non2xx,
        mismatches: r.mismatches,
        errors: r.errors,
        timeouts: r.timeouts,
        apiCpuUs: perReq(cpuTicks(serverPid) - api0),
        dbCpuUs: dbPid ? perReq(cpuTicks(dbPid) - db0) : null,
        loadGenCpuUs: done ? Math.round((gen.user + gen.system) / done) : 0,
        requests: done,
      };
      results.push(row);
      console.log(
        line([
          row.operation,
          row.rps,
          row.p50,
          row.p97_5,
          row.p99,
          row.max,
          row.non2xx,
          row.mismatches,
          row.apiCpuUs,
          row.dbCpuUs ?? 'n/a',
          row.loadGenCpuUs,
        ]),
      );
      if (r.non2xx || r.mismatches || r.errors || r.timeouts || badBody)
        throw new Error(
          `${op.name}: ${r.non2xx} non-2xx, ${r.mismatches} bad bodies, ${r.errors} errors, ${r.timeouts} timeouts; ` +
            `status codes ${JSON.stringify(r.statusCodeStats)}; first bad body: ${String(badBody).slice(0, 400)}`,
        );
    }
    console.log('\n' + operations.map((op) => `  ${op.name.padEnd(12)} ${op.what}`).join('\n'));
    console.log(
      `\nautocannon ${JSON.parse(readFileSync(join(ROOT, 'node_modules/autocannon/package.json'), 'utf8')).version}, node ${process.version}, CLK_TCK ${CLK_TCK}; CPU from /proc/<pid>/stat (utime+stime) over each measured phase`,
    );
    if (process.env.BENCH_JSON === '1') console.log(JSON.stringify(results));
  } finally {
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.on('exit', r));
    }
    if (process.env.BENCH_KEEP_DB === '1') console.log(`kept database ${dbName}`);
    else await admin.query(`DROP DATABASE \`${dbName}\``);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
