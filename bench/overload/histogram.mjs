// Latency histograms of the overload benchmark: log-spaced buckets (2 % apart, 10 µs to ~75 s), cheap to add to
// in a busy load generator and to merge across worker threads, which send them as plain objects.
const MIN_MS = 0.01;
const RATIO = 1.02;
const BUCKETS = 800;
const LOG_RATIO = Math.log(RATIO);

export class Histogram {
  constructor({ counts = new Array(BUCKETS).fill(0), n = 0, max = 0 } = {}) {
    this.counts = counts;
    this.n = n;
    this.max = max;
  }

  add(ms) {
    const i = ms <= MIN_MS ? 0 : Math.min(BUCKETS - 1, Math.ceil(Math.log(ms / MIN_MS) / LOG_RATIO));
    this.counts[i]++;
    this.n++;
    if (ms > this.max) this.max = ms;
  }

  merge(other) {
    for (let i = 0; i < BUCKETS; i++) this.counts[i] += other.counts[i];
    this.n += other.n;
    this.max = Math.max(this.max, other.max);
    return this;
  }

  /** The q-quantile in ms (a bucket's upper bound, so at most 2 % high; never above the largest value), or null when empty. */
  quantile(q) {
    if (this.n === 0) return null;
    const rank = Math.max(1, Math.ceil(q * this.n));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i];
      if (seen >= rank) return Math.min(this.max, MIN_MS * RATIO ** i);
    }
    return this.max;
  }

  summary() {
    return { n: this.n, p50: this.quantile(0.5), p99: this.quantile(0.99), max: this.n ? this.max : null };
  }
}

/** Merges histograms received from workers (plain objects) into one. */
export const mergeHistograms = (list) => list.reduce((sum, h) => sum.merge(h), new Histogram());
