import { SharedRun, SharedRuns } from './shared-run';

/** An action whose runs the test finishes by hand, recording when each started. */
function controlled() {
  const runs: { finish: (value: number) => void; fail: (error: Error) => void }[] = [];
  let calls = 0;
  const action = () =>
    new Promise<number>((resolve, reject) => {
      const n = ++calls;
      runs.push({ finish: () => resolve(n), fail: reject });
    });
  return { action, runs, started: () => calls };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('SharedRun', () => {
  it('a call while nothing runs starts a run and gets its result', async () => {
    const c = controlled();
    const shared = new SharedRun(c.action);
    const first = shared.run();
    expect(c.started()).toBe(1);
    c.runs[0].finish(0);
    await expect(first).resolves.toBe(1);
    expect(shared.busy).toBe(false);
  });

  it('calls during a run share one run that starts after it; runs never overlap', async () => {
    const c = controlled();
    const shared = new SharedRun(c.action);
    const early = shared.run();
    const late = [shared.run(), shared.run(), shared.run()];
    await settled();
    expect(c.started()).toBe(1); // not before the first run ended
    c.runs[0].finish(0);
    await expect(early).resolves.toBe(1);
    await settled();
    expect(c.started()).toBe(2);
    c.runs[1].finish(0);
    await expect(Promise.all(late)).resolves.toEqual([2, 2, 2]);
    expect(c.started()).toBe(2);
  });

  it('a call made after the queued run started waits for a run of its own', async () => {
    const c = controlled();
    const shared = new SharedRun(c.action);
    void shared.run();
    const second = shared.run();
    c.runs[0].finish(0);
    await settled();
    expect(c.started()).toBe(2);
    const third = shared.run(); // the second run is under way: it may have missed this caller's write
    c.runs[1].finish(0);
    await expect(second).resolves.toBe(2);
    await settled();
    expect(c.started()).toBe(3);
    c.runs[2].finish(0);
    await expect(third).resolves.toBe(3);
  });

  it('a failed run fails its callers only; the queued callers get the next run', async () => {
    const c = controlled();
    const shared = new SharedRun(c.action);
    const failing = shared.run();
    const queued = shared.run();
    c.runs[0].fail(new Error('down'));
    await expect(failing).rejects.toThrow('down');
    await settled();
    c.runs[1].finish(0);
    await expect(queued).resolves.toBe(2);
  });
});

describe('SharedRuns', () => {
  it('shares runs per key and forgets a key once idle', async () => {
    const started: string[] = [];
    const finishers: (() => void)[] = [];
    const runs = new SharedRuns<void>();
    const action = (key: string) => () =>
      new Promise<void>((resolve) => {
        started.push(key);
        finishers.push(resolve);
      });
    const all = ['a', 'b', 'a', 'a'].map((key) => runs.run(key, action(key)));
    expect(started).toEqual(['a', 'b']);
    expect(runs.size).toBe(2);
    finishers[0]();
    finishers[1]();
    await settled();
    expect(started).toEqual(['a', 'b', 'a']);
    finishers[2]();
    await Promise.all(all);
    expect(runs.size).toBe(0);
  });
});
