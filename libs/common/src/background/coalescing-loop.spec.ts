import { CoalescingLoop } from './coalescing-loop';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A pass that stays open until released, counting how often it ran and how many ran at once. */
function gatedPass() {
  const state = { runs: 0, open: 0, mostOpen: 0, release: () => {} };
  const pass = async () => {
    state.runs++;
    state.open++;
    state.mostOpen = Math.max(state.mostOpen, state.open);
    await new Promise<void>((resolve) => (state.release = resolve));
    state.open--;
  };
  return { state, pass };
}

describe('CoalescingLoop', () => {
  it('runs kicks that come during a pass as one more pass after it, never two at once', async () => {
    const { state, pass } = gatedPass();
    const loop = new CoalescingLoop(pass, () => undefined);
    loop.kick();
    loop.kick();
    loop.kick();
    await tick();
    expect(state.runs).toBe(1);
    state.release();
    await tick();
    expect(state.runs).toBe(2);
    state.release();
    await tick();
    expect(state.runs).toBe(2);
    expect(state.mostOpen).toBe(1);
  });

  it('stop waits for the pass in hand and refuses later kicks', async () => {
    const { state, pass } = gatedPass();
    const loop = new CoalescingLoop(pass, () => undefined);
    loop.kick();
    loop.kick();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await tick();
    expect(stopped).toBe(false);
    expect(loop.stopped).toBe(true);
    state.release();
    await stopping;
    loop.kick();
    await tick();
    expect(state.runs).toBe(1);
  });

  it('start runs the first pass at once, or only after the interval when told so', async () => {
    const runs = { now: 0, later: 0 };
    const now = new CoalescingLoop(
      async () => void runs.now++,
      () => undefined,
    );
    const later = new CoalescingLoop(
      async () => void runs.later++,
      () => undefined,
    );
    now.start(3_600_000);
    later.start(3_600_000, false);
    await tick();
    expect(runs).toEqual({ now: 1, later: 0 });
    await Promise.all([now.stop(), later.stop()]);
  });

  it('reports a failing pass and runs again on the next kick', async () => {
    const failures: string[] = [];
    let runs = 0;
    const loop = new CoalescingLoop(
      async () => {
        runs++;
        throw new Error(`pass ${runs}`);
      },
      (error) => failures.push(error.message),
    );
    loop.kick();
    await tick();
    loop.kick();
    await tick();
    expect(failures).toEqual(['pass 1', 'pass 2']);
    await loop.stop();
  });
});
