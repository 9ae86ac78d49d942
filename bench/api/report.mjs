// The printed results of `npm run bench:api`: a line per measured phase while it runs, then per
// operation the median of the rounds for the services and the bare handler, and their ratios.
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round2 = (x) => Math.round(x * 100) / 100;
const ratioText = (r) => (r ? `${r.median.toFixed(2)} (${r.min.toFixed(2)}-${r.max.toFixed(2)})` : '-');

const table = (widths) => (cells) =>
  cells.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join(' ');

const phaseLine = table([6, 10, 8, 8, 8, 8, 13, 12]);
export const phaseHeader = () => phaseLine(['round', 'operation', 'target', 'req/s', 'p50 ms', 'p99 ms', 'server µs/req', 'DB µs/req']);
export const phaseRow = (round, op, target, r) => phaseLine([round, op.name, target, r.rps, r.p50, r.p99, r.cpuUs, r.dbCpuUs ?? 'n/a']);

/**
 * Per operation and target the median of the rounds; the ratios are the median of each round's ratio
 * (service and bare handler measured back to back, so a round's ratio is least disturbed by load that
 * comes and goes on the machine), with their range over the rounds.
 */
export function summarize(ops, phases) {
  return ops.map((op) => {
    const results = (target) => phases.filter((p) => p.op === op && p.target === target).map((p) => p.result);
    const medianOf = (list) =>
      list.length
        ? {
            rps: Math.round(median(list.map((r) => r.rps))),
            p99: median(list.map((r) => r.p99)),
            cpuUs: Math.round(median(list.map((r) => r.cpuUs))),
            dbCpuUs: list[0].dbCpuUs === null ? null : Math.round(median(list.map((r) => r.dbCpuUs))),
          }
        : null;
    const [service, bare] = [results('service'), results('bare')];
    const ratios = (key) => {
      if (!bare.length) return null;
      const perRound = service.map((s, i) => s[key] / bare[i][key]);
      return { median: round2(median(perRound)), min: round2(Math.min(...perRound)), max: round2(Math.max(...perRound)) };
    };
    return {
      operation: op.name,
      service: medianOf(service),
      bare: medianOf(bare),
      rpsRatio: ratios('rps'),
      p99Ratio: ratios('p99'),
      cpuRatio: ratios('cpuUs'),
    };
  });
}

const summaryLine = table([10, 13, 10, 18, 12, 9, 18, 14, 11, 18]);
export function printSummary(rows) {
  console.log(
    summaryLine([
      'operation',
      'service req/s',
      'bare req/s',
      'req/s ÷',
      'service p99',
      'bare p99',
      'p99 ÷',
      'service µs/req',
      'bare µs/req',
      'µs/req ÷',
    ]),
  );
  for (const { operation, service, bare, rpsRatio, p99Ratio, cpuRatio } of rows)
    console.log(
      summaryLine([
        operation,
        service.rps,
        bare?.rps ?? '-',
        ratioText(rpsRatio),
        service.p99,
        bare?.p99 ?? '-',
        ratioText(p99Ratio),
        service.cpuUs,
        bare?.cpuUs ?? '-',
        ratioText(cpuRatio),
      ]),
    );
}
