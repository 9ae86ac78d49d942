// The measured phases of the overload benchmark. A level: load groups in worker threads (so 2048 connections never
// starve the probes or this thread), /health/live probes in a thread of their own, and the CPU of the service,
// MariaDB and this benchmark process (generator and probes) over the level's window. Paced requests, one every
// 50 ms from this thread, for the unloaded latency and for the recovery after a flood (no load runs then).
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { CLK_TCK, cpuTicks } from '../lib/processes.mjs';
import { Histogram } from './histogram.mjs';
import { PromisedConnection } from './http-client.mjs';
import { requestSource } from './requests.mjs';
import { mergeStats } from './stats.mjs';

export const TIMEOUT_MS = 10_000;
const PROBE = { intervalMs: 200, timeoutMs: 5_000 };
/** Threads start this long before a level, so its window holds none of their start-up. */
const LEAD_MS = 500;
/** A worker that has not reported this long after its level ended is stopped, and the run fails. */
const REPORT_GRACE_MS = 30_000;
const LOAD_WORKER = new URL('./load-worker.mjs', import.meta.url);
const PROBE_WORKER = new URL('./probe-worker.mjs', import.meta.url);

const live = new Set();
const until = (at) => sleep(Math.max(0, at - Date.now()));

/** Stops every worker still running (the global deadline, a signal, a failure). */
export const terminateWorkers = () => Promise.all([...live].map((w) => w.terminate()));

function runWorker(url, workerData, reportBy) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData });
    live.add(worker);
    const timer = setTimeout(() => {
      worker.terminate();
      reject(new Error(`${url.pathname.split('/').pop()} did not report`));
    }, reportBy - Date.now());
    const settle = (fn, value) => {
      clearTimeout(timer);
      live.delete(worker);
      fn(value);
    };
    worker.once('message', (result) => settle(resolve, result));
    worker.once('error', (error) => settle(reject, error));
    worker.once('exit', (code) => settle(reject, new Error(`${url.pathname.split('/').pop()} exited with ${code} before reporting`)));
  });
}

const cpuOf = (pids) => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuTicks(pid)]));

/**
 * One level of `seconds`: each group `{ name, port, connections, spec }` over as many workers as `perWorker` needs,
 * `probe` `{ port, path }` (optional), and CPU of `pids` (`{ service, db, bench }`) in cores. `afterLoad(stoppedAt)`
 * runs once the load has stopped (the recovery watch), while the last probes finish.
 */
export async function runLevel({ seconds, groups, probe, pids, perWorker, afterLoad }) {
  const startAt = Date.now() + LEAD_MS;
  const stopAt = startAt + seconds * 1000;
  const reportBy = stopAt + REPORT_GRACE_MS;
  const loads = groups.map((group) => {
    const parts = Math.ceil(group.connections / perWorker);
    return Promise.all(
      Array.from({ length: parts }, (_, i) => {
        const connections = Math.floor(group.connections / parts) + (i < group.connections % parts ? 1 : 0);
        const tag = `${group.name}${i}-${startAt.toString(36)}`;
        return runWorker(
          LOAD_WORKER,
          { port: group.port, connections, startAt, stopAt, timeoutMs: TIMEOUT_MS, spec: group.spec, tag },
          reportBy,
        );
      }),
    );
  });
  const probing = probe && runWorker(PROBE_WORKER, { ...probe, ...PROBE, startAt, stopAt }, reportBy);
  // a failing group must not leave the others' rejections unhandled while this awaits the window
  const settled = Promise.allSettled([...loads, probing ?? null]);
  await until(startAt);
  const cpu0 = cpuOf(pids);
  await until(stopAt);
  const cpu1 = cpuOf(pids);
  const cores = Object.fromEntries(Object.keys(pids).map((name) => [name, (cpu1[name] - cpu0[name]) / CLK_TCK / seconds]));
  const parts = await Promise.all(loads).catch(async (error) => {
    await settled;
    throw error;
  });
  const after = afterLoad ? await afterLoad(stopAt) : null;
  const probed = probing ? await probing : null;
  return {
    seconds,
    cores,
    groups: Object.fromEntries(
      groups.map((group, i) => [
        group.name,
        {
          connections: group.connections,
          stats: mergeStats(parts[i].map((p) => p.stats)),
          elu: Math.max(...parts[i].map((p) => p.elu)),
          // the generator threads' own CPU in cores, where Node can tell (process.threadCpuUsage)
          cores: parts[i].every((p) => p.cpuSeconds !== null) ? parts[i].reduce((sum, p) => sum + p.cpuSeconds, 0) / seconds : null,
        },
      ]),
    ),
    probe: probed && { ...probed, latencies: new Histogram(probed.latencies).summary() },
    after,
  };
}

/**
 * Requests every `intervalMs` (on a free connection, or a new one when all are waiting) for up to `maxMs` or until
 * `enough(sent)` is true; each of `sent` is `{ sentAt, outcome }`, outcome `{ response | failure, ms }` once settled.
 */
async function paced({ port, spec, tag, intervalMs = 50, maxMs, enough = () => false }) {
  const next = requestSource(spec, port, tag);
  const idle = [];
  const all = [];
  const sent = [];
  const started = Date.now();
  for (let at = started; at - started < maxMs && !enough(sent); at += intervalMs) {
    await until(at);
    const connection = idle.pop() ?? new PromisedConnection(port);
    if (!all.includes(connection)) all.push(connection);
    const entry = { sentAt: Date.now(), outcome: null };
    sent.push(entry);
    entry.settled = connection.request(next(), TIMEOUT_MS).then((outcome) => {
      entry.outcome = outcome;
      idle.push(connection);
    });
  }
  await Promise.all(sent.map((e) => e.settled));
  for (const connection of all) connection.close();
  return sent;
}

const isSuccess = (outcome) => outcome?.response?.status === 200 && outcome.response.envelope === 200;

/** Latency of paced requests to an idle service: p50 and p99 of `seconds` at one every 50 ms; all must succeed. */
export async function unloaded({ port, spec, seconds = 2 }) {
  const sent = await paced({ port, spec, tag: `unloaded-${Date.now().toString(36)}`, maxMs: seconds * 1000 });
  const failed = sent.find((e) => !isSuccess(e.outcome));
  if (failed) throw new Error(`an unloaded request failed: ${JSON.stringify(failed.outcome).slice(0, 400)}`);
  const latencies = new Histogram();
  for (const e of sent) latencies.add(e.outcome.ms);
  return latencies.summary();
}

/**
 * The time from `stoppedAt` (the flood's end) until answers are normal again: the first of `run` paced requests in a
 * row that succeed within `normalMs`. Watches for at most `maxMs`; `recoveredMs` null when they never were.
 */
export async function recovery({ port, spec, stoppedAt, normalMs, maxMs = 30_000, run = 5 }) {
  // settled normal, settled otherwise or outstanding past normalMs (so it cannot be), or not yet known
  const verdict = (e) => (e.outcome ? isSuccess(e.outcome) && e.outcome.ms < normalMs : Date.now() - e.sentAt >= normalMs ? false : null);
  const firstRun = (sent) => {
    for (let i = 0; i + run <= sent.length; i++) {
      const window = sent.slice(i, i + run).map(verdict);
      if (window.every((v) => v === true)) return i;
      if (!window.includes(false)) return -1; // this run may still form: wait for its answers
    }
    return -1;
  };
  const sent = await paced({
    port,
    spec,
    tag: `recovery-${stoppedAt.toString(36)}`,
    maxMs: maxMs - Math.max(0, Date.now() - stoppedAt),
    enough: (s) => firstRun(s) >= 0,
  });
  const i = firstRun(sent);
  const before = sent.slice(0, i < 0 ? sent.length : i);
  return {
    recoveredMs: i < 0 ? null : Math.max(0, sent[i].sentAt - stoppedAt),
    normalMs,
    abnormal: before.length,
    firstSentMs: sent.length ? sent[0].sentAt - stoppedAt : null,
  };
}
