// Loaded into a service's process (`node --import`) by bench/request-files.mjs: V8's precise coverage of the
// process, taken on demand over a control port of its own (REQUEST_FILES_PORT). POST /reset clears the counters;
// POST /take answers the scripts that ran a function since the last reset, each with how many of its functions ran.
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

/** The scripts with at least one function called since the last take (taking resets V8's counters). */
async function take() {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const ran = {};
  for (const script of result) {
    const called = script.functions.filter((f) => f.ranges[0].count > 0).length;
    if (called) ran[script.url] = called;
  }
  return ran;
}

createServer((req, res) => {
  take().then((ran) => res.end(req.url === '/take' ? JSON.stringify(ran) : '{}'));
}).listen(Number(process.env.REQUEST_FILES_PORT), '127.0.0.1');
