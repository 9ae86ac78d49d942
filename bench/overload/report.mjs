// The overload benchmark's summary: one table row per operation and level (plus the fairness and forged-token
// phases), a line under each with every answer that was not a success, and the "Done when" checks as PASS/FAIL.
export const GOALS = {
  goodput: { 512: 0.8, 2048: 0.7 },
  answerWithinMs: 1_000,
  successP99Ms: 1_000,
  liveP99Ms: 100,
  recoveredMs: 1_000,
  /** The quiet tenant beside a flood: this share of its throughput alone, and at most this many times its p99. */
  quietThroughput: 0.8,
  quietP99: 2,
  forgedGoodput: 0.7,
};

const ms = (v) => (v === null || v === undefined ? '-' : v < 10 ? v.toFixed(1) : String(Math.round(v)));
const pair = (s) => `${ms(s?.p50)}/${ms(s?.p99)}`;
const share = (v) => (v === null ? '-' : `${(v * 100).toFixed(v > 0.999 && v < 1 ? 2 : 1)}%`);
const cores = (v) => (v === undefined || v === null ? '-' : v.toFixed(2));

const COLUMNS = [
  ['operation', 10],
  ['load', 20],
  ['conns', 6],
  ['ok/s', 7],
  ['×C', 6],
  ['ok p50/p99', 12],
  ['refused p50/p99', 16],
  ['timeouts', 9],
  ['conn err', 9],
  ['≤1 s', 8],
  ['live p50/p99/max', 18],
  ['CPU svc/db/bench', 17],
  ['gen CPU/ELU', 11],
];
const line = (cells) => cells.map((c, i) => String(c).padEnd(COLUMNS[i][1])).join(' ');

/**
 * A group's row: its `figures`, the level's probe and CPU (`sameLevel`: a later group of a level already shown, whose
 * probe and CPU columns get a ditto mark), and its generator threads' CPU and busiest event-loop use.
 */
export function row({ operation, load, connections, figures: f, probe, cpu, generator }, sameLevel = false) {
  const live = sameLevel ? '"' : probe ? `${pair(probe.latencies)}/${ms(probe.latencies.max)}` : '-';
  const cells = [
    operation,
    load,
    connections,
    f.goodput,
    f.ratio === null ? '-' : f.ratio.toFixed(2),
    pair(f.ok),
    pair(f.refused),
    f.timeouts,
    f.connectionErrors,
    share(f.withinShare),
    live,
    sameLevel ? '"' : `${cores(cpu.service)}/${cores(cpu.db)}/${cores(cpu.bench)}`,
    `${cores(generator.cores)}/${generator.elu.toFixed(2)}`,
  ];
  const others = Object.entries(f.others).map(
    ([status, e]) =>
      `${status} ×${e.count} (${e.retryAfter === e.count ? 'Retry-After' : e.retryAfter ? `${e.retryAfter} with Retry-After` : 'no Retry-After'}) "${e.sample}"`,
  );
  const lost = Object.entries(f.lost).map(([code, n]) => `${code} ×${n}`);
  const details = [
    others.length && `answers: ${others.join('; ')}`,
    lost.length && `lost: ${lost.join(', ')}`,
    f.openLate && `open at the end: ${f.openLate + f.openFresh}, ${f.openLate} of them sent over 1 s before`,
    !sameLevel && probe && Object.keys(probe.failures).length && `probe failures: ${JSON.stringify(probe.failures)}`,
    !sameLevel && probe?.overKubeletTimeout && `probes over 1 s: ${probe.overKubeletTimeout} of ${probe.sent}`,
  ].filter(Boolean);
  return [line(cells), ...(details.length ? [`${' '.repeat(11)}${details.join(' | ')}`] : [])].join('\n');
}

export const header = () => [line(COLUMNS.map(([name]) => name)), '-'.repeat(line(COLUMNS.map(() => '')).length)].join('\n');

export const recoveryLine = (operation, after, connections) =>
  after
    ? `${operation} after ${connections}: ${after.recoveredMs === null ? 'not recovered within 30 s' : `normal again after ${Math.round(after.recoveredMs)} ms`} ` +
      `(normal: envelope 200 within ${ms(after.normalMs)} ms, 5 in a row; ${after.abnormal} abnormal answers before; ` +
      `the first request ${Math.round(after.firstSentMs)} ms after the flood's end)`
    : null;

/** The "Done when" checks over what ran; each `{ pass, text }`. */
export function checks({ operations, fairness, forged, capacityOfPage }) {
  const out = [];
  const check = (pass, text) => out.push({ pass: Boolean(pass), text });
  for (const [name, op] of Object.entries(operations))
    for (const level of op.levels.filter((l) => GOALS.goodput[l.connections])) {
      const goal = GOALS.goodput[level.connections];
      const ratio = level.figures.ratio ?? 0;
      check(ratio >= goal, `${name} goodput at ${level.connections} connections >= ${goal} C: ${ratio.toFixed(2)} C`);
    }
  for (const [name, op] of Object.entries(operations))
    for (const { connections, figures: f } of op.levels.filter((l) => l.connections > 16))
      check(
        f.withinShare === 1 && f.timeouts === 0 && f.connectionErrors === 0 && f.unwelcome === 0 && f.openLate === 0,
        `${name} at ${connections}: every request answered within 1 s, as a success or a 503/429 with Retry-After: ` +
          `${share(f.withinShare)} within 1 s, ${f.timeouts} timeouts, ${f.connectionErrors} connection errors, ` +
          `${f.unwelcome} other answers, ${f.openLate} open over 1 s at the end`,
      );
  for (const [name, op] of Object.entries(operations))
    for (const { connections, figures: f } of op.levels)
      check(
        f.ok.p99 !== null && f.ok.p99 <= GOALS.successP99Ms,
        `${name} at ${connections}: successes' p99 <= 1 s: ${f.ok.p99 === null ? 'no successes' : `${ms(f.ok.p99)} ms`}`,
      );
  const probes = [
    ...Object.entries(operations).flatMap(([name, op]) => op.levels.map((l) => [`${name} ${l.connections}`, l.probe])),
    fairness && ['fairness alone', fairness.alone.probe],
    fairness && ['fairness flood', fairness.flooded.probe],
    forged && ['forged', forged.probe],
  ].filter((p) => p && p[1]);
  if (probes.length) {
    const [where, worst] = probes.reduce((a, b) => (b[1].latencies.p99 > a[1].latencies.p99 ? b : a));
    const failed = probes.reduce((n, [, p]) => n + Object.values(p.failures).reduce((a, b) => a + b, 0), 0);
    check(
      worst.latencies.p99 < GOALS.liveP99Ms && failed === 0,
      `/health/live p99 < 100 ms throughout: worst ${ms(worst.latencies.p99)} ms (${where}), ${failed} probes failed`,
    );
  }
  for (const [name, op] of Object.entries(operations)) {
    const after = op.levels.find((l) => l.connections === 2048)?.after;
    if (after)
      check(
        after.recoveredMs !== null && after.recoveredMs <= GOALS.recoveredMs,
        `${name} recovered within 1 s of the 2048 flood: ${after.recoveredMs === null ? 'not within 30 s' : `${Math.round(after.recoveredMs)} ms`}`,
      );
  }
  if (fairness) {
    const [alone, beside] = [fairness.alone.figures, fairness.flooded.quiet];
    const kept = alone.goodput ? beside.goodput / alone.goodput : 0;
    const p99 = alone.ok.p99 && beside.ok.p99 !== null ? beside.ok.p99 / alone.ok.p99 : Infinity;
    check(
      kept >= GOALS.quietThroughput && p99 <= GOALS.quietP99,
      `quiet tenant beside a 512 flood keeps >= ${GOALS.quietThroughput}x its throughput and p99 within ${GOALS.quietP99}x: ` +
        `${kept.toFixed(2)}x (${beside.goodput} vs ${alone.goodput} ok/s), p99 ${Number.isFinite(p99) ? p99.toFixed(2) : '-'}x ` +
        `(${ms(beside.ok.p99)} vs ${ms(alone.ok.p99)} ms)`,
    );
  }
  if (forged) {
    const ratio = capacityOfPage ? forged.real.goodput / capacityOfPage : 0;
    check(
      ratio >= GOALS.forgedGoodput,
      `forged-token flood (512) leaves real tenants >= ${GOALS.forgedGoodput} C of page: ${ratio.toFixed(2)} C (${forged.real.goodput} ok/s)`,
    );
  }
  return out;
}
