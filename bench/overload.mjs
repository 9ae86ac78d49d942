// npm run bench:overload: how main-service and device-service behave under a crowd (10x overload and more), for
// load shedding. Each service runs alone as a built process on MariaDB, as deployed (default settings, log lines to
// /dev/null). Per operation (page of a 30-row tenant, save of a new record, device-service's pushInfo with device
// tokens in the query): capacity C = successes/s at 16 connections after a warm-up, then 512 and 2048 connections
// of clients that send again as soon as they get any answer (keep-alive; reconnecting at once when closed). Per
// level: goodput (envelope status 200 answers/s) and its ratio to C, every other answer by HTTP status (and whether
// 503/429 carried Retry-After), refusals' and successes' p50/p99, timeouts (no answer within 10 s: counted, socket
// dropped), connection errors, the share answered within 1 s, /health/live latency from a probe every 200 ms on a
// new connection (a kubelet), and the CPU of the service, MariaDB and this process (the load generator and probes).
// After each flood, one request every 50 ms until answers are normal again (the recovery time). Then fairness (a
// tenant flooding page at 512 connections beside a quiet tenant's 4, against those 4 alone) and forged tokens (512
// connections of well-formed JWTs with wrong signatures, a fresh one per request, beside real tenants' 16). Prints a
// table, the "Done when" checks as PASS/FAIL (figures only: the exit code is 0 unless the run itself failed) and the
// machine. The load generator is a lean node:net client (bench/overload/http-client.mjs) in worker threads; the
// probes run in a thread of their own, so their latency is the service's, not a busy generator's.
//
//   DB_URL                      server to use (databases `<name>_<time>` and `<name>_<time>_device` are made and dropped)
//                                                                                  default mysql://root@127.0.0.1:3306/bench_overload
//   BENCH_OVERLOAD_SECONDS      seconds of each level and phase                                          default 15
//   BENCH_OVERLOAD_WARMUP_SECONDS  warm-up at 16 connections before each operation's capacity (not counted)   default 3
//   BENCH_OVERLOAD_WORKER_CONNECTIONS  connections per load-generator worker thread (2048 → 2 threads)  default 1024
//   BENCH_OVERLOAD_DEADLINE_SECONDS  the whole run's bound: past it, everything is stopped and the run fails
//                                                                                  default 900 + 15 × seconds + 4 × warm-up
//   BENCH_DEVICES               registered devices that push (tokens signed by the benchmark)            default 1000
//   BENCH_ONLY                  comma-separated parts: page, save, pushInfo, fairness, forged            default all
//   BENCH_SERVICE_ENV           extra environment of both services, space-separated NAME=value pairs,
//                               e.g. `ADMISSION_MAX_IN_FLIGHT=8`                                         default none
//   BENCH_SERVICE_ARGS          extra node arguments of the services, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
//   BENCH_LOG_DIR               write the services' log lines to <dir>/<service>.log instead of /dev/null
//   BENCH_KEEP_DB=1             keep the databases afterwards; they are dropped otherwise
//   BENCH_JSON=1                also print everything as one JSON line
//
// All traffic goes to 127.0.0.1. Under `npm run bench:overload` it runs under the image's Node major
// (scripts/with-image-node.sh); `node bench/overload.mjs` under the machine's.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchServer } from './lib/databases.mjs';
import { databasePid, sleep, stop } from './lib/processes.mjs';
import { childPids, describeMachine, machine } from './overload/machine.mjs';
import { recovery, runLevel, terminateWorkers, unloaded } from './overload/phases.mjs';
import { checks, header, recoveryLine, row } from './overload/report.mjs';
import { specs } from './overload/requests.mjs';
import { setUp } from './overload/setup.mjs';
import { figures, mergeStats } from './overload/stats.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const BASE_URL = env.DB_URL ?? 'mysql://root@127.0.0.1:3306/bench_overload';
const SECONDS = Number(env.BENCH_OVERLOAD_SECONDS ?? 15);
const WARMUP_SECONDS = Number(env.BENCH_OVERLOAD_WARMUP_SECONDS ?? 3);
const PER_WORKER = Number(env.BENCH_OVERLOAD_WORKER_CONNECTIONS ?? 1024);
const DEADLINE_SECONDS = Number(env.BENCH_OVERLOAD_DEADLINE_SECONDS ?? 900 + 15 * SECONDS + 4 * WARMUP_SECONDS);
const DEVICES = Number(env.BENCH_DEVICES ?? 1000);
const PARTS = ['page', 'save', 'pushInfo', 'fairness', 'forged'];
const ONLY = env.BENCH_ONLY ? env.BENCH_ONLY.split(',').map((s) => s.trim()) : PARTS;
const SERVICE_ENV = Object.fromEntries(
  (env.BENCH_SERVICE_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const SERVICE_ARGS = (env.BENCH_SERVICE_ARGS ?? '').split(' ').filter(Boolean);
const CAPACITY_CONNECTIONS = 16;
const FLOODS = [512, 2048];
const QUIET_CONNECTIONS = 4;
const log = (text) => console.error(`[bench:overload] ${text}`);

/** The measured operations: which service, and the requests (specs of bench/overload/requests.mjs). */
const OPERATIONS = {
  page: (s) => ({ target: s.targets.main, spec: specs.page(s.bearers.flood) }),
  save: (s) => ({ target: s.targets.main, spec: specs.save(s.bearers.save, s.pageRows) }),
  pushInfo: (s) => ({ target: s.targets.device, spec: specs.pushInfo(s.devices, s.serverNos) }),
};

const children = [];
let server = null;
let cleaning = null;

/** Stops the workers and the services (SIGKILL after 20 s, and any child whose start was cut short), drops the databases. */
function cleanUp() {
  cleaning ??= (async () => {
    await terminateWorkers();
    await Promise.all(children.map((child) => Promise.race([stop(child), sleep(20_000).then(() => child.kill('SIGKILL'))])));
    for (const pid of childPids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* exited meanwhile */
      }
    }
    await server?.close(env.BENCH_KEEP_DB === '1');
  })();
  return cleaning;
}

async function abort(reason, code) {
  console.error(reason);
  setTimeout(() => process.exit(code), 60_000).unref(); // even a cleanup that hangs ends
  await cleanUp().catch((error) => console.error(error));
  process.exit(code);
}

/** Runs a level and prints its rows: `groups` of `{ name, connections, spec, load, operation }`. */
async function level(context, { target, groups, seconds = SECONDS, capacity, afterLoad }) {
  const exited = () => {
    const { exitCode, signalCode } = target.child;
    if (exitCode !== null || signalCode !== null)
      throw new Error(`${target.service} exited (${signalCode ?? exitCode}) under ${groups[0].load}`);
  };
  exited();
  const result = await runLevel({
    seconds,
    groups: groups.map((g) => ({ ...g, port: target.port })),
    probe: { port: target.port, path: target.live },
    pids: { service: target.pid, db: context.dbPid, bench: process.pid },
    perWorker: PER_WORKER,
    afterLoad,
  });
  exited(); // a crash under load is a finding, and makes the later figures meaningless
  const rows = groups.map((g) => {
    const group = result.groups[g.name];
    const f = figures(group.stats, seconds, capacity ?? group.stats.ok.n / seconds);
    const generator = { cores: group.cores, elu: group.elu };
    return {
      operation: g.operation,
      load: g.load,
      connections: g.connections,
      figures: f,
      probe: result.probe,
      cpu: result.cores,
      generator,
    };
  });
  rows.forEach((r, i) => console.log(row(r, i > 0)));
  return { result, rows };
}

/** Warm-up, unloaded latency and capacity C of one operation. */
async function capacity(context, name, { target, spec }) {
  await unloaded({ port: target.port, spec, seconds: 0.05 }); // one request: a broken setup fails here, with its answer
  log(`${name}: warm-up ${WARMUP_SECONDS} s, unloaded latency, capacity at ${CAPACITY_CONNECTIONS} connections`);
  if (WARMUP_SECONDS > 0)
    await runLevel({
      seconds: WARMUP_SECONDS,
      groups: [{ name: 'warmup', port: target.port, connections: CAPACITY_CONNECTIONS, spec }],
      pids: {},
      perWorker: PER_WORKER,
    });
  const idle = await unloaded({ port: target.port, spec });
  const { result, rows } = await level(context, {
    target,
    groups: [{ name, operation: name, load: 'capacity', connections: CAPACITY_CONNECTIONS, spec }],
  });
  return { idle, c: result.groups[name].stats.ok.n / SECONDS, first: rows[0] };
}

async function measureOperation(context, name, op) {
  const { idle, c, first } = await capacity(context, name, op);
  const levels = [{ ...first, after: null }];
  for (const connections of FLOODS) {
    log(`${name}: ${connections} connections for ${SECONDS} s, then the recovery watch`);
    const { result, rows } = await level(context, {
      target: op.target,
      capacity: c,
      groups: [{ name, operation: name, load: 'flood', connections, spec: op.spec }],
      afterLoad: (stoppedAt) => recovery({ port: op.target.port, spec: op.spec, stoppedAt, normalMs: 2 * idle.p50 }),
    });
    levels.push({ ...rows[0], after: result.after });
  }
  return { service: op.target.service, unloaded: idle, capacity: c, levels };
}

/** The quiet tenant's 4 connections alone, then beside another tenant's 512-connection flood (page). */
async function fairness(context, page, c) {
  const quiet = { name: 'quiet', operation: 'fairness', connections: QUIET_CONNECTIONS, spec: specs.page(context.setup.bearers.quiet) };
  log(`fairness: the quiet tenant alone, then beside a 512-connection flood`);
  const alone = await level(context, { target: page.target, capacity: c, groups: [{ ...quiet, load: 'quiet tenant alone' }] });
  const flooded = await level(context, {
    target: page.target,
    capacity: c,
    groups: [
      { name: 'flood', operation: 'fairness', load: 'flooding tenant', connections: FLOODS[0], spec: page.spec },
      { ...quiet, load: 'quiet beside flood' },
    ],
    afterLoad: context.settle(page),
  });
  return {
    alone: { figures: alone.rows[0].figures, probe: alone.result.probe },
    flooded: { quiet: flooded.rows[1].figures, flood: flooded.rows[0].figures, probe: flooded.result.probe, after: flooded.result.after },
  };
}

/** 512 connections of forged Bearer tokens beside two real tenants' 8 connections each (page). */
async function forged(context, page, c) {
  log(`forged tokens: 512 connections beside real tenants' ${CAPACITY_CONNECTIONS}`);
  const { bearers } = context.setup;
  const half = CAPACITY_CONNECTIONS / 2;
  const { result } = await level(context, {
    target: page.target,
    capacity: c,
    groups: [
      { name: 'forged', operation: 'forged', load: 'forged tokens', connections: FLOODS[0], spec: specs.forged() },
      { name: 'realA', operation: 'forged', load: 'real tenant a', connections: half, spec: specs.page(bearers.flood) },
      { name: 'realB', operation: 'forged', load: 'real tenant b', connections: half, spec: specs.page(bearers.quiet) },
    ],
    afterLoad: context.settle(page),
  });
  const real = figures(mergeStats([result.groups.realA.stats, result.groups.realB.stats]), SECONDS, c);
  console.log(`${' '.repeat(11)}real tenants together: ${real.goodput} ok/s, ${(real.ratio ?? 0).toFixed(2)} C`);
  return { real, forged: figures(result.groups.forged.stats, SECONDS, c), probe: result.probe, after: result.after };
}

async function main() {
  server = await benchServer(BASE_URL, ROOT);
  const m = await machine(server.admin, ROOT);
  console.log(`machine: ${describeMachine(m)}`);
  if (m.loadAverage[0] >= 1)
    console.log(`WARNING: the 1-minute load average is ${m.loadAverage[0]} before the start: other work shares the cores, figures are low`);
  const setup = await setUp({
    server,
    root: ROOT,
    children,
    serviceEnv: SERVICE_ENV,
    serviceArgs: SERVICE_ARGS,
    logDir: env.BENCH_LOG_DIR,
    deviceCount: DEVICES,
  });
  log(`databases seeded and services up in ${(performance.now() / 1000).toFixed(1)} s`);
  const pageIdle = {};
  const context = {
    setup,
    dbPid: databasePid(),
    // after a phase's flood, wait until page answers normally again, so the next phase starts from a settled service
    settle: (page) => (stoppedAt) => recovery({ port: page.target.port, spec: page.spec, stoppedAt, normalMs: 2 * pageIdle.p50 }),
  };
  console.log(
    [
      `\nlevels of ${SECONDS} s (warm-up ${WARMUP_SECONDS} s); latencies in ms`,
      `×C: goodput (envelope 200 answers/s) ÷ the operation's capacity at ${CAPACITY_CONNECTIONS} connections (fairness, forged: page's)`,
      `refused: 503/429 answers; ≤1 s: share of requests answered within 1 s; live: /health/live probes every 200 ms, each on a new connection`,
      `CPU in cores: the service, MariaDB, this whole process (generator, probes); gen: the load threads' own CPU (Node 23.9+) and busiest event-loop use`,
      ...(Object.keys(SERVICE_ENV).length ? [`service environment: ${env.BENCH_SERVICE_ENV}`] : []),
      '',
    ].join('\n'),
  );
  console.log(header());
  const operations = {};
  for (const name of Object.keys(OPERATIONS).filter((n) => ONLY.includes(n)))
    operations[name] = await measureOperation(context, name, OPERATIONS[name](setup));
  const page = OPERATIONS.page(setup);
  let fair = null;
  let forgedFlood = null;
  let capacityOfPage = null;
  if (ONLY.includes('fairness') || ONLY.includes('forged')) {
    const base = operations.page ? { c: operations.page.capacity, idle: operations.page.unloaded } : await capacity(context, 'page', page);
    capacityOfPage = base.c;
    Object.assign(pageIdle, base.idle);
    if (ONLY.includes('fairness')) fair = await fairness(context, page, capacityOfPage);
    if (ONLY.includes('forged')) forgedFlood = await forged(context, page, capacityOfPage);
  }

  console.log('');
  for (const [name, op] of Object.entries(operations)) {
    console.log(`${name}: unloaded p50 ${op.unloaded.p50.toFixed(1)} ms, p99 ${op.unloaded.p99.toFixed(1)} ms (one request every 50 ms)`);
    for (const l of op.levels) if (l.after) console.log(`  ${recoveryLine(name, l.after, l.connections)}`);
  }
  if (fair?.flooded.after) console.log(`  ${recoveryLine('page', fair.flooded.after, 'the fairness flood')}`);
  if (forgedFlood?.after) console.log(`  ${recoveryLine('page', forgedFlood.after, 'the forged-token flood')}`);
  const verdicts = checks({ operations, fairness: fair, forged: forgedFlood, capacityOfPage });
  console.log('\nDone when:');
  for (const v of verdicts) console.log(`  ${v.pass ? 'PASS' : 'FAIL'}  ${v.text}`);
  console.log(
    `\nmachine: ${describeMachine(m)}; load generator: ${PER_WORKER} connections per worker thread; ` +
      `the run took ${Math.round(performance.now() / 1000)} s`,
  );
  if (env.BENCH_JSON === '1')
    console.log(
      JSON.stringify(
        {
          machine: m,
          seconds: SECONDS,
          serviceEnv: SERVICE_ENV,
          operations,
          fairness: fair,
          forged: forgedFlood,
          capacityOfPage,
          checks: verdicts,
        },
        (_, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v),
      ),
    );
}

const deadline = setTimeout(() => abort(`bench:overload: past its deadline of ${DEADLINE_SECONDS} s; stopped`, 2), DEADLINE_SECONDS * 1000);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => abort(`bench:overload: ${signal}`, 130));
main()
  .then(async () => {
    clearTimeout(deadline);
    await cleanUp();
    process.exit(0);
  })
  .catch((error) => abort(error?.stack ?? error, 1));
