// The measured phases of one operation: autocannon with a new request per call, every answer's body checked,
// and the CPU the server and the database used meanwhile.
import autocannon from 'autocannon';
import { CLK_TCK, cpuTicks } from '../lib/processes.mjs';
import { median } from './report.mjs';

function runAutocannon(origin, op, { connections, seconds }, onBad) {
  return autocannon({
    url: origin,
    connections,
    duration: seconds,
    timeout: 10,
    headers: op.headers,
    requests: [
      {
        method: op.method,
        setupRequest: (req) => ({ ...req, path: op.path(), ...(op.body ? { body: JSON.stringify(op.body()) } : {}) }),
      },
    ],
    verifyBody: (body) => {
      if (op.ok(body)) return true;
      onBad(body);
      return false;
    },
  });
}

/**
 * One run of `seconds` against `target` ({ origin, pid }), with the server's and the database's CPU ticks meanwhile.
 * Throws on any non-2xx, bad body, error or timeout with the first offending body.
 */
async function run(op, target, dbPid, phase, { connections, seconds }) {
  let badBody = null;
  const server0 = cpuTicks(target.pid);
  const db0 = cpuTicks(dbPid);
  const r = await runAutocannon(target.origin, op, { connections, seconds }, (body) => (badBody ??= body));
  if (badBody || r.non2xx || r.mismatches || r.errors || r.timeouts)
    throw new Error(
      `${op.name} ${phase}: ${r.non2xx} non-2xx, ${r.mismatches} bad bodies, ${r.errors} errors, ${r.timeouts} timeouts; ` +
        `status codes ${JSON.stringify(r.statusCodeStats)}; first bad body: ${String(badBody).slice(0, 400)}`,
    );
  return {
    requests: r.requests.total,
    seconds: r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    serverTicks: cpuTicks(target.pid) - server0,
    dbTicks: dbPid ? cpuTicks(dbPid) - db0 : null,
  };
}

/** The runs of one target as one result: req/s and CPU per request over all of them, latencies the median of theirs. */
function combined(runs) {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const perRequest = (ticks) => Math.round(((ticks / CLK_TCK) * 1e6) / requests);
  return {
    rps: Math.round(requests / runs.reduce((sum, r) => sum + r.seconds, 0)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: perRequest(runs.reduce((sum, r) => sum + r.serverTicks, 0)),
    dbCpuUs: runs[0].dbTicks === null ? null : perRequest(runs.reduce((sum, r) => sum + r.dbTicks, 0)),
    requests,
  };
}

/** Warm-up (not counted), then one measured phase of `seconds` against one target. */
export async function measure(op, target, dbPid, { connections, seconds, warmupSeconds }) {
  if (warmupSeconds > 0) await run(op, target, dbPid, 'warm-up', { connections, seconds: warmupSeconds });
  return combined([await run(op, target, dbPid, 'measured', { connections, seconds })]);
}

/**
 * Two targets measured in turns of `sliceSeconds` until each has had `seconds`, the order swapped every turn, after
 * a warm-up of each: load that comes and goes on the machine falls on both alike, so their ratio holds on a shared
 * machine. Per target: req/s and CPU per request over all its slices, p50 and p99 the median of its slices'.
 */
export async function measureAlternating(op, [first, second], dbPid, { connections, seconds, warmupSeconds, sliceSeconds }) {
  for (const target of [first, second])
    if (warmupSeconds > 0) await run(op, target, dbPid, 'warm-up', { connections, seconds: warmupSeconds });
  const runs = [[], []];
  const slices = Math.max(1, Math.round(seconds / sliceSeconds));
  for (let slice = 0; slice < slices; slice++)
    for (const i of slice % 2 ? [1, 0] : [0, 1])
      runs[i].push(await run(op, [first, second][i], dbPid, 'measured', { connections, seconds: sliceSeconds }));
  return runs.map(combined);
}
