// A worker thread of closed-loop clients: `connections` keep-alive connections, each sending its next request as
// soon as it gets any answer (and reconnecting at once when the server closes), from `startAt` to `stopAt` (epoch
// ms, shared by every worker of a level). A request unanswered after `timeoutMs` is counted and its socket dropped.
// Posts its stats, event-loop utilisation (near 1: the generator itself was the bottleneck) and, where this Node has
// process.threadCpuUsage (23.9+), the thread's own CPU seconds, when done.
import { parentPort, workerData } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClientConnection } from './http-client.mjs';
import { requestSource } from './requests.mjs';
import { ANSWER_WITHIN_MS, newStats, recordAnswer, recordLost } from './stats.mjs';

const { port, connections, startAt, stopAt, timeoutMs, spec, tag } = workerData;
/**
 * New connections are spread over up to this long (1 ms each below), as a crowd arrives, rather than all in the same
 * instant, which would overflow the accept queue (511) and measure the kernel's SYN retries instead of the service.
 */
const RAMP_MS = Math.min(500, connections);
/** After a failed connect (refused, no free port) a short pause, so a service that is down is not spun against. */
const CONNECT_RETRY_MS = 10;
const SWEEP_MS = 100;

const next = requestSource(spec, port, tag);
const stats = newStats();
let running = true;

function client() {
  const connection = new ClientConnection(port, {
    response: (response, ms) => {
      recordAnswer(stats, response, ms);
      if (running) connection.send(next());
    },
    failure: (code, connected) => {
      recordLost(stats, code);
      if (!running) return;
      if (connected) connection.send(next());
      else setTimeout(() => running && connection.send(next()), CONNECT_RETRY_MS);
    },
    idle: () => running && connection.send(next()),
  });
  return connection;
}

await sleep(Math.max(0, startAt - Date.now()));
const elu0 = performance.eventLoopUtilization();
const cpu0 = process.threadCpuUsage?.();
const clients = Array.from({ length: connections }, client);
clients.forEach((c, i) => setTimeout(() => running && c.send(next()), (i * RAMP_MS) / connections));

const sweep = setInterval(() => {
  const now = performance.now();
  for (const c of clients)
    if (c.busy && now - c.sentAt > timeoutMs) {
      c.close();
      recordLost(stats, 'timeout');
      if (running) c.send(next());
    }
}, SWEEP_MS);

await sleep(Math.max(0, stopAt - Date.now()));
running = false;
clearInterval(sweep);
const now = performance.now();
for (const c of clients) {
  if (c.busy) stats[now - c.sentAt > ANSWER_WITHIN_MS ? 'openLate' : 'openFresh']++;
  stats.connectionsOpened += c.opened;
  c.close();
}
const elu = performance.eventLoopUtilization(elu0).utilization;
const cpu = cpu0 && process.threadCpuUsage(cpu0);
parentPort.postMessage({ stats, elu, cpuSeconds: cpu ? (cpu.user + cpu.system) / 1e6 : null });
