// One measured phase of one operation against one server: autocannon with a new request per call,
// every answer's body checked, and the CPU the server and the database used meanwhile.
import autocannon from 'autocannon';
import { CLK_TCK, cpuTicks } from '../lib/processes.mjs';

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
 * Warm-up (not counted), then the measured phase. Throws on any non-2xx, bad body, error or timeout
 * with the first offending body. `target`: { origin, pid } of the server; `dbPid` may be null.
 */
export async function measure(op, target, dbPid, { connections, seconds, warmupSeconds }) {
  let badBody = null;
  const onBad = (body) => (badBody ??= body);
  const failed = (phase, r) =>
    new Error(
      `${op.name} ${phase}: ${r.non2xx} non-2xx, ${r.mismatches} bad bodies, ${r.errors} errors, ${r.timeouts} timeouts; ` +
        `status codes ${JSON.stringify(r.statusCodeStats)}; first bad body: ${String(badBody).slice(0, 400)}`,
    );
  if (warmupSeconds > 0) {
    const warm = await runAutocannon(target.origin, op, { connections, seconds: warmupSeconds }, onBad);
    if (badBody || warm.non2xx || warm.errors || warm.timeouts) throw failed('warm-up', warm);
  }
  const server0 = cpuTicks(target.pid);
  const db0 = cpuTicks(dbPid);
  const r = await runAutocannon(target.origin, op, { connections, seconds }, onBad);
  if (badBody || r.non2xx || r.mismatches || r.errors || r.timeouts) throw failed('measured', r);
  const done = r.requests.total;
  const perRequest = (ticks) => Math.round(((ticks / CLK_TCK) * 1e6) / done);
  return {
    rps: Math.round(done / r.duration),
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuUs: perRequest(cpuTicks(target.pid) - server0),
    dbCpuUs: dbPid ? perRequest(cpuTicks(dbPid) - db0) : null,
    requests: done,
  };
}
