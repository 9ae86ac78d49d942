// A worker thread probing `path` every `intervalMs` from `startAt` to `stopAt`, each probe on a new connection as a
// kubelet does; in a thread of its own so that what it measures is the service's latency, not a busy generator's.
// Probes are independent: a slow one does not hold back the next. Posts the probes' latencies,
// the failures (not 200, a connection error, no answer within `timeoutMs`), and how many took over 1 s (a
// kubelet's default timeoutSeconds).
import { parentPort, workerData } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import { Histogram } from './histogram.mjs';
import { PromisedConnection } from './http-client.mjs';

const { port, path, intervalMs, startAt, stopAt, timeoutMs } = workerData;
const KUBELET_TIMEOUT_MS = 1_000;
const bytes = Buffer.from(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n\r\n`);
const latencies = new Histogram();
const failures = {};
let overKubeletTimeout = 0;

async function probe() {
  const connection = new PromisedConnection(port);
  const { response, failure, ms } = await connection.request(bytes, timeoutMs);
  connection.close();
  latencies.add(ms); // a probe that timed out counts as its timeout
  if (ms > KUBELET_TIMEOUT_MS || failure) overKubeletTimeout++;
  const why = failure ?? (response.status === 200 ? null : `HTTP ${response.status}`);
  if (why) failures[why] = (failures[why] ?? 0) + 1;
}

const probes = [];
for (let at = startAt; at < stopAt; at += intervalMs) {
  await sleep(Math.max(0, at - Date.now()));
  probes.push(probe());
}
await Promise.all(probes);
parentPort.postMessage({ latencies, failures, sent: probes.length, overKubeletTimeout });
