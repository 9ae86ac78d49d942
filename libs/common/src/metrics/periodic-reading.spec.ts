import { fakeClock } from '../../../../test/support/fake-clock';
import { GAUGE_REFRESH_MS, PeriodicReading } from './periodic-reading';

/** A read that counts its calls and answers `value` when released (at once unless held). */
function countingRead(initial: number) {
  const read = { calls: 0, value: initial, held: false, release: () => undefined as void };
  const fn = () => {
    read.calls++;
    if (!read.held) return Promise.resolve(read.value);
    return new Promise<number>((resolve) => (read.release = () => resolve(read.value)));
  };
  return { read, fn };
}

describe('PeriodicReading', () => {
  let clock: ReturnType<typeof fakeClock>;
  beforeEach(() => (clock = fakeClock()));
  afterEach(() => jest.useRealTimers());

  it('reads at most once per interval, for calls in a row and at once; the next read after the interval shows a change', async () => {
    const { read, fn } = countingRead(3);
    const reading = new PeriodicReading(fn);
    for (let i = 0; i < 10; i++) expect(await reading.current()).toBe(3);
    expect(await Promise.all(Array.from({ length: 10 }, () => reading.current()))).toEqual(Array(10).fill(3));
    read.value = 7;
    clock.advance(GAUGE_REFRESH_MS - 1);
    expect(await reading.current()).toBe(3);
    expect(read.calls).toBe(1);
    clock.advance(1);
    expect(await Promise.all([reading.current(), reading.current(), reading.current()])).toEqual([7, 7, 7]);
    expect(read.calls).toBe(2);
  });

  it('keeps the last value when a read fails, and tries again only after the interval', async () => {
    let fail = false;
    let calls = 0;
    const reading = new PeriodicReading(() => (++calls, fail ? Promise.reject(new Error('database gone')) : Promise.resolve(5)));
    expect(await reading.current()).toBe(5);
    fail = true;
    clock.advance(GAUGE_REFRESH_MS);
    expect(await reading.current()).toBe(5);
    expect(await reading.current()).toBe(5);
    expect(calls).toBe(2);
  });

  it('waits for a read at most the deadline, then answers the last value; no second read starts while one is under way', async () => {
    const { read, fn } = countingRead(1);
    const reading = new PeriodicReading(fn, 1000, 30);
    expect(await reading.current()).toBe(1);
    read.held = true;
    read.value = 2;
    clock.advance(1000);
    const started = performance.now();
    expect(await reading.current()).toBe(1);
    expect(performance.now() - started).toBeLessThan(1000);
    clock.advance(5000);
    expect(await reading.current()).toBe(1);
    expect(read.calls).toBe(2);
    // the late read ends; the next call, past the interval since it began, reads again
    read.release();
    read.held = false;
    await new Promise((resolve) => setImmediate(resolve));
    read.value = 3;
    expect(await reading.current()).toBe(3);
    expect(read.calls).toBe(3);
  });
});
