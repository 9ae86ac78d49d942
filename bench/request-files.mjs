// npm run bench:request-files: the project files whose code one warm request runs, per operation, measured
// with V8's precise coverage inside main-service (bench/request-files/agent.mjs) on MariaDB: after a warm-up of
// WARM_REQUESTS requests of the operation, the counters are cleared, one request is sent, and every project
// script (built from libs/ or apps/) with a function called meanwhile is listed by its source file. Background
// work that happens to run in that window (a timer) would be listed too: each operation is taken TAKES times and
// a file counts only when it ran in every take. docs/performance.md keeps the lists.
//
//   DB_URL          server to use (a database `<name>_<time>` is made and dropped)   default mysql://root@127.0.0.1:3306/bench
//   BENCH_ONLY      comma-separated operation names (page, getById, save)            default all three
//   BENCH_JSON=1    also print the lists as one JSON line
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import jwt from 'jsonwebtoken';
import { operations } from './api/operations.mjs';
import { seedSnapshots } from './api/seed.mjs';
import { benchServer } from './lib/databases.mjs';
import { freePort, startNode, stop } from './lib/processes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BASE_URL = process.env.DB_URL ?? 'mysql://root@127.0.0.1:3306/bench';
const ONLY = (process.env.BENCH_ONLY ?? 'page,getById,save').split(',').map((s) => s.trim());
const JWT_SECRET = 'bench-secret-of-at-least-16-chars';
const TENANT = 'bench';
const ROWS = 10_000;
const WARM_REQUESTS = 300;
const TAKES = 3;
const AGENT = pathToFileURL(join(ROOT, 'bench/request-files/agent.mjs')).href;
const DIST = pathToFileURL(join(ROOT, 'dist')).href + '/';

/** `dist/libs/common/src/x.js` as its source, `libs/common/src/x.ts`; null for anything not built from the project. */
function sourceOf(url) {
  if (!url.startsWith(DIST) || !url.endsWith('.js')) return null;
  const built = relative(join(ROOT, 'dist'), fileURLToPath(url));
  return /^(libs|apps)\//.test(built) ? built.replace(/\.js$/, '.ts') : null;
}

async function send(origin, op) {
  const body = op.body?.();
  const res = await fetch(origin + op.path(), {
    method: op.method,
    headers: op.headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!op.ok(text)) throw new Error(`${op.name}: unexpected answer ${text.slice(0, 300)}`);
}

async function main() {
  const db = await benchServer(BASE_URL, ROOT);
  const env = { ...process.env, JWT_SECRET };
  for (const variable of ['LOG_LEVEL', 'METRICS_ENABLED', 'KAFKA_BROKERS', 'DB_POOL_SIZE', 'OTEL_TRACES_EXPORTER']) delete env[variable];
  let service;
  try {
    const database = await db.migrated('', 'main-service', env);
    const conn = await db.connect(database);
    const snapshotIds = await seedSnapshots(conn, TENANT, ROWS);
    await conn.end();
    const [port, control] = [await freePort(), await freePort()];
    const origin = `http://127.0.0.1:${port}`;
    service = await startNode('main-service', ['--import', AGENT, join(ROOT, 'dist/apps/main-service/src/main.js')], {
      env: { ...env, PORT: String(port), DB_URL: db.urlOf(database), REQUEST_FILES_PORT: String(control) },
      readyUrl: `${origin}/main-service/health/live`,
    });
    const bearer = `Bearer ${jwt.sign({ sub: 'bench', tenantId: TENANT, roles: ['administrator'] }, JWT_SECRET, { expiresIn: 3600 })}`;
    const coverage = (what) => fetch(`http://127.0.0.1:${control}/${what}`, { method: 'POST' }).then((r) => r.json());
    const ops = operations({ snapshotIds, snapshotRows: ROWS, devices: [], serverNos: [], bearer }).filter(
      (op) => op.service === 'main' && ONLY.includes(op.name),
    );
    const lists = {};
    for (const op of ops) {
      for (let i = 0; i < WARM_REQUESTS; i++) await send(origin, op);
      let files = null;
      for (let take = 0; take < TAKES; take++) {
        await coverage('reset');
        await send(origin, op);
        const ran = new Set(
          Object.keys(await coverage('take'))
            .map(sourceOf)
            .filter(Boolean),
        );
        files = files ? new Set([...files].filter((f) => ran.has(f))) : ran;
      }
      lists[op.name] = [...files].sort();
      console.log(`\n${op.name}: ${files.size} project files ran for one warm request`);
      for (const file of lists[op.name]) console.log(`  ${file}`);
    }
    if (process.env.BENCH_JSON === '1') console.log(JSON.stringify(lists));
  } finally {
    if (service) await stop(service);
    await db.close(false);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
