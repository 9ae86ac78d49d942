// npm run bench: data-dictionary/importList throughput on MariaDB + Kafka, measured from the first
// request to the moment the consumer has applied the last batch (rows/s).
//
//   DB_URL         server to use (a fresh database `<name>_<time>` is created and dropped)   default mysql://root@127.0.0.1:3306/bench
//   KAFKA_BROKERS  broker list; when 127.0.0.1:9092 is not answering, scripts/kafka.sh starts (and later stops) one
//   BENCH_ROWS     rows per batch (default 10000), BENCH_BATCHES batches in the burst (default 10)
import { execFileSync, spawn } from 'node:child_process';
import { createConnection as tcp } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jwt from 'jsonwebtoken';
import mysql from 'mysql2/promise';
import { freePort, sleep } from './lib/processes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BASE_URL = process.env.DB_URL ?? 'mysql://root@127.0.0.1:3306/bench';
const BROKERS = process.env.KAFKA_BROKERS ?? '127.0.0.1:9092';
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 10);
const SECRET = 'bench-secret-of-at-least-16-chars';
const PATH = '/main-service/system-api/configuration/data-dictionary';

const reachable = (host, port) =>
  new Promise((resolve) => {
    const socket = tcp({ host, port }, () => (socket.end(), resolve(true)));
    socket.on('error', () => resolve(false));
  });

async function main() {
  const kafkaScript = join(ROOT, 'scripts/kafka.sh');
  const [kafkaHost, kafkaPort] = BROKERS.split(',')[0].split(':');
  const startedKafka = !(await reachable(kafkaHost, Number(kafkaPort)));
  if (startedKafka) execFileSync('bash', [kafkaScript, 'start'], { stdio: 'inherit' });

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
  const env = {
    ...process.env,
    DB_URL: dbUrl,
    KAFKA_BROKERS: BROKERS,
    KAFKA_TOPIC_PREFIX: `bench-${stamp}.`,
    PORT: String(port),
    JWT_SECRET: SECRET,
    LOG_LEVEL: 'warn',
  };
  execFileSync(process.execPath, [join(ROOT, 'dist/apps/main-service/src/migrate.js')], { env, stdio: 'ignore' });
  const server = spawn(process.execPath, [join(ROOT, 'dist/apps/main-service/src/main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}${PATH}`;
  const token = `Bearer ${jwt.sign({ sub: 'bench', tenantId: 'bench', roles: ['administrator'] }, SECRET, { expiresIn: 3600 })}`;
  const call = async (method, path, body) => {
    const res = await fetch(`${base}/${path}`, {
      method,
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    return res.json();
  };
  try {
    for (let i = 0; ; i++) {
      if ((await fetch(`http://127.0.0.1:${port}/main-service/v3/api-docs`).catch(() => null))?.ok) break;
      if (i > 120) throw new Error('main-service did not start');
      await sleep(500);
    }
    const rows = (type, n) =>
      Array.from({ length: n }, (_, i) => ({
        dataDictionaryTypeCode: type,
        dataDictionaryCode: `c${i}`,
        name: `Name ${i}`,
        sort: i,
        value: `v${i}`,
      }));
    const applied = async (ids) => {
      for (const id of ids) {
        for (;;) {
          const { data } = await call('GET', `importStatus?batchId=${id}`);
          if (data && data.status !== 'PENDING') {
            if (data.status !== 'APPLIED' || data.appliedCount !== data.itemCount)
              throw new Error(`batch ${id}: ${JSON.stringify(data).slice(0, 300)}`);
            break;
          }
          await sleep(20);
        }
      }
    };
    const run = async (label, batches, size) => {
      const bodies = Array.from({ length: batches }, (_, b) => rows(`${label}-${b}`, size));
      const start = performance.now();
      const answers = await Promise.all(bodies.map((body) => call('POST', 'importList', body)));
      const accepted = performance.now();
      const ids = answers.map((a) => {
        if (a.status !== 200) throw new Error(`importList: ${JSON.stringify(a).slice(0, 300)}`);
        return a.extraData.batchId;
      });
      await applied(ids);
      const done = performance.now();
      const total = batches * size;
      console.log(
        `${label.padEnd(8)} ${String(batches).padStart(3)} x ${String(size).padStart(6)} rows: accepted in ${(accepted - start).toFixed(0)} ms, ` +
          `applied in ${(done - start).toFixed(0)} ms -> ${Math.round(total / ((done - start) / 1000))} rows/s (request to applied)`,
      );
    };
    console.log(`import throughput, MariaDB + Kafka (${BROKERS}), main-service as one process`);
    await run('warmup', 1, 1_000);
    await run('single', 1, ROWS);
    await run('burst', BATCHES, ROWS);
    const again = rows('single-0', ROWS).map((r) => ({ ...r, value: 'changed' }));
    const start = performance.now();
    const { extraData } = await call('POST', 'importList', again);
    await applied([extraData.batchId]);
    const ms = performance.now() - start;
    console.log(
      `reimport   1 x ${String(ROWS).padStart(6)} rows (all updates): applied in ${ms.toFixed(0)} ms -> ${Math.round(ROWS / (ms / 1000))} rows/s`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.on('exit', r));
    await admin.query(`DROP DATABASE \`${dbName}\``);
    await admin.end();
    if (startedKafka) execFileSync('bash', [kafkaScript, 'stop'], { stdio: 'inherit' });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
