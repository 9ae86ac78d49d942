// npm run bench:api: request throughput and latency of main-service and device-service, each compared
// with a bare node:http + mysql2 handler doing the same work per request (bench/bare/), on MariaDB,
// measured over HTTP with autocannon. Services as deployed: default log level (one JSON line per
// request, to /dev/null), metrics on. Service and bare handler alternate per operation in each round;
// the summary gives the median of the rounds and the ratios service ÷ bare (docs/performance.md).
// Everything (services, bare handler, load generator) runs under the Node that runs this script:
// `npm run bench:api` uses the image's Node major (scripts/with-image-node.sh), `node bench/api-requests.mjs`
// the machine's.
//
//   DB_URL              server to use (databases `<name>_<time>` and `<name>_<time>_device` are made and dropped)
//                                                                                           default mysql://root@127.0.0.1:3306/bench
//   BENCH_ROUNDS        rounds; each measures every operation on the service and on the bare handler   default 3
//   BENCH_SEED_ROWS     snapshot rows of the measured tenant                                  default 100000
//   BENCH_OTHER_ROWS    snapshot rows of a second tenant in the same table                    default 20000
//   BENCH_DEVICES       registered devices that push (tokens signed by the benchmark)         default 1000
//   BENCH_SECONDS       measured seconds per operation and target                             default 10
//   BENCH_WARMUP_SECONDS warm-up seconds before each measured phase (not counted)              default 2
//   BENCH_SLICE_SECONDS service and bare handler take turns of this many seconds within a phase;
//                       0: each measured whole, back to back                                  default 2
//   BENCH_SAME_PROCESS=1 the bare handler runs inside each service's process (on a port of its own) instead of a
//                       process of its own: the turns then share one process, its heap, JIT and scheduling, so
//                       what the machine does meanwhile falls on both alike; CPU per request is the process's
//                       during each one's turns (the service's idle timers count for both)
//   BENCH_CONNECTIONS   concurrent HTTP connections (keep-alive, no pipelining)                default 32
//   BENCH_ONLY          comma-separated operation names (page, getById, save, pushInfo, page-all); default all
//   BENCH_LOG_DIR       write the servers' log lines to <dir>/<server>.log instead of /dev/null
//   BENCH_KEEP_DB=1     keep the databases afterwards (to EXPLAIN the queries); they are dropped otherwise
//   BENCH_SERVICE_ARGS  extra node arguments of the services and of the bare handler's own process (so both are
//                       profiled alike), e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
//   BENCH_JSON=1        also print the summary as one JSON line
//   BENCH_WITHOUT_HISTORY=1  the snapshot table's history triggers dropped before seeding: a save then writes no
//                       history entry, through either target (what the entries cost, against a run without it)
//
// Every response is checked: any non-2xx, connection error, timeout or envelope `status` other than 200
// (or a `data` of null/false where a record/true is due) fails the run with the first offending body.
// Before loading, the bare handler's answers and writes are compared with the services' own.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import jwt from 'jsonwebtoken';
import { deviceTokenKeys, signDeviceToken } from './bare/auth.mjs';
import { measure, measureAlternating } from './api/load.mjs';
import { operations, PUSH_INFO, SNAPSHOTS } from './api/operations.mjs';
import { phaseHeader, phaseRow, printSummary, summarize } from './api/report.mjs';
import { seedRegistry, seedSnapshots } from './api/seed.mjs';
import { checkSameAnswers } from './api/same-work.mjs';
import cores from '../scripts/lib/cores-busy.js';
import { benchServer } from './lib/databases.mjs';
import { cpuTicks, CLK_TCK, databasePid, freePort, sleep, startNode, stop, waitForAnswer } from './lib/processes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BASE_URL = process.env.DB_URL ?? 'mysql://root@127.0.0.1:3306/bench';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SEED_ROWS = Number(process.env.BENCH_SEED_ROWS ?? 100_000);
const OTHER_ROWS = Number(process.env.BENCH_OTHER_ROWS ?? 20_000);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
const SERVERS = 10;
const WITHOUT_HISTORY = process.env.BENCH_WITHOUT_HISTORY === '1';
const LOAD = {
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 2),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  sliceSeconds: Number(process.env.BENCH_SLICE_SECONDS ?? 2),
};
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((s) => s.trim()) : null;
const SERVICE_ARGS = (process.env.BENCH_SERVICE_ARGS ?? '').split(' ').filter(Boolean);
const LOG_DIR = process.env.BENCH_LOG_DIR;
const SAME_PROCESS = process.env.BENCH_SAME_PROCESS === '1';
const BARE_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'bare/server.mjs');
const JWT_SECRET = 'bench-secret-of-at-least-16-chars';
const DEVICE_TOKEN_SECRET = 'bench-device-token-secret-0123456789';
const DEVICE_SECRET = 'bench-provisioning-secret';
const TENANT = 'bench';
const OTHER_TENANT = 'bench-other';

/** Registers one device through device-service (the service hashes its secret) and returns that hash. */
async function serviceMadeSecretHash(deviceOrigin, deviceDb, bearer) {
  const res = await fetch(`${deviceOrigin}/device-service/system-api/device/data-acquisition-device/save`, {
    method: 'POST',
    headers: { authorization: bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ dataAcquisitionDeviceNo: 'DAD-REFERENCE', secret: DEVICE_SECRET }),
  });
  const body = await res.json();
  if (body.status !== 200) throw new Error(`registering a device: ${JSON.stringify(body).slice(0, 400)}`);
  const [[row]] = await deviceDb.query('SELECT secret_hash FROM device_data_acquisition_device WHERE data_acquisition_device_no = ?', [
    'DAD-REFERENCE',
  ]);
  return row.secret_hash;
}

/** The benchmark signs the devices' tokens; one token from the service's own token call must match them. */
async function signTokens(deviceOrigin, devices) {
  const keys = deviceTokenKeys(DEVICE_TOKEN_SECRET);
  for (const device of devices) device.token = signDeviceToken(keys, device, 86_400);
  const [first] = devices;
  const res = await fetch(
    `${deviceOrigin}/device-service/main-api/device/data-acquisition-device/getGenerationTokenKeyByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=${first.no}&secret=${DEVICE_SECRET}`,
  );
  const issued = (await res.json()).data?.token;
  const [mine, theirs] = [jwt.decode(first.token), issued && jwt.decode(issued)];
  for (const claim of ['kind', 'tenantId', 'rid', 'sfp', 'sub', 'aud'])
    if (mine[claim] !== theirs?.[claim]) throw new Error(`device token claim ${claim}: signed ${mine[claim]}, issued ${theirs?.[claim]}`);
}

async function main() {
  const dbServer = await benchServer(BASE_URL, ROOT);
  const { connect: connection, urlOf: dbUrl } = dbServer;
  const env = { ...process.env, JWT_SECRET, DEVICE_TOKEN_SECRET };
  // as deployed: the default log level and metrics; no broker needed for these operations
  for (const variable of ['LOG_LEVEL', 'METRICS_ENABLED', 'KAFKA_BROKERS', 'DB_POOL_SIZE']) delete env[variable];
  const servers = [];
  try {
    const started = performance.now();
    const databases = {
      main: await dbServer.migrated('', 'main-service', env),
      device: await dbServer.migrated('_device', 'device-service', env),
    };
    const mainDb = await connection(databases.main);
    const deviceDb = await connection(databases.device);
    if (WITHOUT_HISTORY)
      for (const suffix of ['rh_ins', 'rh_upd', 'rh_del']) await mainDb.query(`DROP TRIGGER \`snapshot_device_state_snap_${suffix}\``);
    const snapshotIds = await seedSnapshots(mainDb, TENANT, SEED_ROWS);
    await seedSnapshots(mainDb, OTHER_TENANT, OTHER_ROWS);

    const ports = { main: await freePort(), device: await freePort(), bare: await freePort(), bareDevice: await freePort() };
    const bareEnv = { MAIN_DB_URL: dbUrl(databases.main), DEVICE_DB_URL: dbUrl(databases.device) };
    // with BENCH_SAME_PROCESS, each service's process also runs the bare handler, on a port of its own
    const alongside = SAME_PROCESS ? ['--import', pathToFileURL(BARE_SERVER).href] : [];
    const alongsideEnv = (port) => (SAME_PROCESS ? { ...bareEnv, BARE_PORT: String(port) } : {});
    const origin = (port) => `http://127.0.0.1:${port}`;
    const start = (server, args, extraEnv, readyUrl) =>
      startNode(server, args, { env: { ...env, ...extraEnv }, readyUrl, logDir: LOG_DIR }).then((child) => {
        servers.push(child);
        return child;
      });
    const main = await start(
      'main-service',
      [...SERVICE_ARGS, ...alongside, join(ROOT, 'dist/apps/main-service/src/main.js')],
      { PORT: String(ports.main), DB_URL: dbUrl(databases.main), ...alongsideEnv(ports.bare) },
      `${origin(ports.main)}/main-service/health/live`,
    );
    const device = await start(
      'device-service',
      [...SERVICE_ARGS, ...alongside, join(ROOT, 'dist/apps/device-service/src/main.js')],
      { PORT: String(ports.device), DB_URL: dbUrl(databases.device), ...alongsideEnv(ports.bareDevice) },
      `${origin(ports.device)}/device-service/health/live`,
    );
    const bare = SAME_PROCESS
      ? { main, device }
      : await start('bare', [...SERVICE_ARGS, BARE_SERVER], { PORT: String(ports.bare), ...bareEnv }, `${origin(ports.bare)}/health`).then(
          (child) => ({
            main: child,
            device: child,
          }),
        );
    if (SAME_PROCESS) for (const port of [ports.bare, ports.bareDevice]) await waitForAnswer(`${origin(port)}/health`);

    const bearer = `Bearer ${jwt.sign({ sub: 'bench', tenantId: TENANT, roles: ['administrator'] }, JWT_SECRET, { expiresIn: 7200 })}`;
    const secretHash = await serviceMadeSecretHash(origin(ports.device), deviceDb, bearer);
    const { devices, serverNos } = await seedRegistry(deviceDb, TENANT, { devices: DEVICES, servers: SERVERS, secretHash });
    await signTokens(origin(ports.device), devices);
    console.log(
      `seeded ${SEED_ROWS} + ${OTHER_ROWS} (other tenant) snapshots, ${DEVICES} devices and ${SERVERS} servers; ` +
        `services and bare handler up in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const targets = {
      service: { main: { origin: origin(ports.main), pid: main.pid }, device: { origin: origin(ports.device), pid: device.pid } },
      bare: {
        main: { origin: origin(ports.bare), pid: bare.main.pid },
        device: { origin: origin(SAME_PROCESS ? ports.bareDevice : ports.bare), pid: bare.device.pid },
      },
    };
    await checkSameAnswers({
      targets,
      bearer,
      mainDb,
      deviceDb,
      devices,
      serverNos,
      snapshotIds,
      seedRows: SEED_ROWS,
      history: !WITHOUT_HISTORY,
    });
    await mainDb.end();
    await deviceDb.end();

    const ops = operations({ snapshotIds, snapshotRows: SEED_ROWS, devices, serverNos, bearer }).filter(
      (op) => !ONLY || ONLY.includes(op.name),
    );
    const idle0 = servers.map((s) => cpuTicks(s.pid));
    const machine0 = cores.cpuTimes();
    await sleep(3_000);
    const idle = servers.map((s, i) => Math.round((((cpuTicks(s.pid) - idle0[i]) / CLK_TCK) * 1000) / 3));
    // the machine's other work, measured while the benchmark idles: figures taken beside it are not comparable
    const busyElsewhere = cores.coresBusy(machine0, cores.cpuTimes());
    console.log(
      `\nMariaDB; autocannon ${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up + ${LOAD.seconds} s per operation and target, ` +
        `${ROUNDS} rounds (service and bare alternate${LOAD.sliceSeconds > 0 ? ` in turns of ${LOAD.sliceSeconds} s` : ''}, ` +
        `the order swapped every round); idle CPU ms/s: ` +
        `main-service ${idle[0]}, device-service ${idle[1]}` +
        (SAME_PROCESS ? '; the bare handler runs inside each service process\n' : `, bare ${idle[2]}\n`),
    );
    console.log(phaseHeader());
    const dbPid = databasePid();
    const phases = [];
    for (let round = 1; round <= ROUNDS; round++)
      for (const op of ops) {
        const order = !op.compared ? ['service'] : round % 2 ? ['service', 'bare'] : ['bare', 'service'];
        const servers = order.map((target) => targets[target][op.service]);
        const results = [];
        if (servers.length === 2 && LOAD.sliceSeconds > 0) results.push(...(await measureAlternating(op, servers, dbPid, LOAD)));
        else for (const server of servers) results.push(await measure(op, server, dbPid, LOAD));
        order.forEach((target, i) => {
          phases.push({ op, target, result: results[i] });
          console.log(phaseRow(round, op, target, results[i]));
        });
      }

    const summary = summarize(ops, phases);
    console.log(`\nmedian of ${ROUNDS} rounds; ÷: service ÷ bare handler; µs/req: CPU of the serving process per request\n`);
    printSummary(summary);
    console.log('\n' + ops.map((op) => `  ${op.name.padEnd(10)} ${op.what}`).join('\n'));
    const autocannonVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules/autocannon/package.json'), 'utf8')).version;
    console.log(
      `\nnode ${process.version} (services, bare handler and autocannon ${autocannonVersion}), ${cpus().length} CPUs ${cpus()[0]?.model ?? ''}; ` +
        `paths ${SNAPSHOTS}/..., ${PUSH_INFO}\n` +
        `other load before the measured phases: ${busyElsewhere.toFixed(2)} of ${cpus().length} cores busy while the benchmark idled 3 s`,
    );
    if (process.env.BENCH_JSON === '1') console.log(JSON.stringify({ node: process.version, summary }));
  } finally {
    for (const server of servers) await stop(server);
    await dbServer.close(process.env.BENCH_KEEP_DB === '1');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
