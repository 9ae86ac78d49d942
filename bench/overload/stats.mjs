// What one load group saw during a level: successes (HTTP 200 with envelope status 200) and their latencies, every
// other answer by status (with Retry-After or not, and the first one's error text), refusals' latencies (503/429),
// lost requests (timeouts, connection errors, garbage) and the requests still open when the level ended.
// Workers send it as a plain object; `mergeStats` adds the parts of a group.
import { Histogram, mergeHistograms } from './histogram.mjs';

export const ANSWER_WITHIN_MS = 1_000;

export function newStats() {
  return {
    ok: new Histogram(),
    refused: new Histogram(),
    answered: 0,
    answeredWithin: 0,
    /** `503`, `429`, `401`, or `200 envelope 1002` → { count, retryAfter, sample } */
    others: {},
    /** `timeout`, `ECONNRESET`, `closed-before-answer`, `bad-response`... → count */
    lost: {},
    /** Requests unanswered when the level ended: older than ANSWER_WITHIN_MS, or not yet. */
    openLate: 0,
    openFresh: 0,
    connectionsOpened: 0,
  };
}

/** The error text of an envelope (or the body's start), to show what a refusal said. */
const sampleText = (sample) => (/"error":"([^"]{0,80})/.exec(sample)?.[1] ?? sample.slice(0, 80)).replace(/\s+/g, ' ');

export function recordAnswer(stats, response, ms) {
  stats.answered++;
  if (ms <= ANSWER_WITHIN_MS) stats.answeredWithin++;
  if (response.status === 200 && response.envelope === 200) return stats.ok.add(ms);
  const key = response.status === 200 ? `200 envelope ${response.envelope ?? '?'}` : String(response.status);
  const entry = (stats.others[key] ??= { count: 0, retryAfter: 0, sample: sampleText(response.sample) });
  entry.count++;
  if (response.retryAfter !== null) entry.retryAfter++;
  if (response.status === 503 || response.status === 429) stats.refused.add(ms);
}

export function recordLost(stats, code) {
  stats.lost[code] = (stats.lost[code] ?? 0) + 1;
}

export function mergeStats(parts) {
  const sum = newStats();
  sum.ok = mergeHistograms(parts.map((p) => p.ok));
  sum.refused = mergeHistograms(parts.map((p) => p.refused));
  for (const p of parts) {
    for (const field of ['answered', 'answeredWithin', 'openLate', 'openFresh', 'connectionsOpened']) sum[field] += p[field];
    for (const [key, e] of Object.entries(p.others)) {
      const entry = (sum.others[key] ??= { count: 0, retryAfter: 0, sample: e.sample });
      entry.count += e.count;
      entry.retryAfter += e.retryAfter;
    }
    for (const [code, n] of Object.entries(p.lost)) sum.lost[code] = (sum.lost[code] ?? 0) + n;
  }
  return sum;
}

/** The figures reported for a group over a level of `seconds`, relative to capacity `c` (successes/s) when given. */
export function figures(stats, seconds, c) {
  const lost = Object.values(stats.lost).reduce((a, b) => a + b, 0);
  const timeouts = stats.lost.timeout ?? 0;
  // a request still open at the end but younger than the bound may yet be answered in time: it is left out
  const decided = stats.answered + lost + stats.openLate;
  const goodput = stats.ok.n / seconds;
  const others = Object.entries(stats.others).sort((a, b) => b[1].count - a[1].count);
  return {
    goodput: Math.round(goodput),
    ratio: c ? goodput / c : null,
    ok: stats.ok.summary(),
    refused: stats.refused.summary(),
    others: Object.fromEntries(others),
    // an answer other than a success or a 503/429 with Retry-After
    unwelcome: others.reduce((n, [key, e]) => n + (key === '503' || key === '429' ? e.count - e.retryAfter : e.count), 0),
    timeouts,
    connectionErrors: lost - timeouts,
    lost: stats.lost,
    openLate: stats.openLate,
    openFresh: stats.openFresh,
    withinShare: decided ? stats.answeredWithin / decided : null,
    connectionsOpened: stats.connectionsOpened,
  };
}
