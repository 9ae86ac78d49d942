import { request } from 'node:http';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How often health/live is polled. */
export const POLL_EVERY_MS = 50;

/**
 * The latest a poll may be answered, from when it was due. A free loop answers within tens of
 * milliseconds; the freezes guarded against held it for 6-9 s (a 50,000-row import, an XLSX bomb).
 */
export const LIVE_WITHIN_MS = 250;

/**
 * Retries of a test that polls: a freeze is deterministic and fails every try, while a machine busy with
 * other work (another test worker's build, other processes) can make a free loop's polls late once.
 */
export const POLL_TEST_RETRIES = 2;

/** GET `{base}{prefix}/health/live` on its own connection (no keep-alive socket to reuse); resolves to the HTTP status. */
function live(base: string, prefix: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${prefix}/health/live`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Polls health/live every POLL_EVERY_MS until `work` settles, to show the event loop stayed free meanwhile.
 * Returns each poll's lateness, measured from when it was due (so a blocked loop shows as late polls,
 * not as one slow request). `alongside` runs at each poll (other requests sent while the work runs);
 * `prefix` is the service's (main-service unless told).
 */
export async function pollLiveDuring<T>(
  base: string,
  work: Promise<T>,
  alongside?: () => void,
  prefix = '/main-service',
): Promise<{ result: T; latencies: number[] }> {
  let done = false;
  const settled = work.finally(() => (done = true));
  const latencies: number[] = [];
  const polls: Promise<void>[] = [];
  const start = performance.now();
  for (let k = 1; !done; k++) {
    const due = start + k * POLL_EVERY_MS;
    await sleep(Math.max(0, due - performance.now()));
    if (done) break;
    alongside?.();
    polls.push(
      live(base, prefix).then((status) => {
        if (status !== 200) throw new Error(`health/live answered ${status}`);
        latencies.push(performance.now() - due);
      }),
    );
  }
  const result = await settled;
  await Promise.all(polls);
  return { result, latencies };
}
