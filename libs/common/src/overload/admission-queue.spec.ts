import { AdmissionOptions, AdmissionQueue, Place, RefusalReason } from './admission-queue';

/** A request as the queue sees it, recording what was done with it. */
class Probe {
  outcome?: 'admitted' | RefusalReason;
  place!: Place;
  admit(): void {
    this.outcome = 'admitted';
  }
  refuse(reason: RefusalReason): void {
    this.outcome = reason;
  }
}

describe('AdmissionQueue', () => {
  let clock = 0;
  let queue: AdmissionQueue;
  const make = (options: Partial<AdmissionOptions> = {}) =>
    (queue = new AdmissionQueue({ limit: 2, waitMs: 500, waitingMax: 100, now: () => clock, ...options }));
  const arrive = (lane: string, perSecond?: number): Probe => {
    const probe = new Probe();
    probe.place = queue.enter(lane, probe, perSecond);
    return probe;
  };

  beforeEach(() => {
    clock = 0;
    jest.useFakeTimers();
  });
  afterEach(() => {
    queue.close();
    jest.useRealTimers();
  });

  it('admits up to its limit at once; the others wait, at no cost, until a slot frees, oldest first', () => {
    make();
    const [a, b, c, d] = [arrive('t1'), arrive('t1'), arrive('t1'), arrive('t1')];
    expect([a, b, c, d].map((p) => p.outcome)).toEqual(['admitted', 'admitted', undefined, undefined]);
    expect([queue.inFlight, queue.waiting]).toEqual([2, 2]);
    a.place.leave();
    expect([c.outcome, d.outcome]).toEqual(['admitted', undefined]);
    a.place.leave(); // twice: no second slot freed
    expect([queue.inFlight, queue.waiting]).toEqual([2, 1]);
  });

  it('refuses a request that waited its whole budget, not before', () => {
    make();
    arrive('t1');
    arrive('t1');
    const late = arrive('t1');
    clock = 499;
    queue.sweep();
    expect(late.outcome).toBeUndefined();
    clock = 500;
    queue.sweep();
    expect(late.outcome).toBe('busy');
    expect(queue.waiting).toBe(0);
  });

  it('refuses a crowd that expires together a chunk at a time, the event loop going on between', () => {
    make({ limit: 1, waitingMax: 1000 });
    arrive('t1');
    const crowd = Array.from({ length: 200 }, () => arrive('t1'));
    clock = 500;
    queue.sweep();
    expect(crowd.filter((p) => p.outcome === 'busy').length).toBe(64);
    jest.runOnlyPendingTimers(); // the next turn of the event loop (setImmediate), and the sweeper's interval
    jest.runOnlyPendingTimers();
    jest.runOnlyPendingTimers();
    expect(crowd.every((p) => p.outcome === 'busy')).toBe(true);
  });

  it('refuses at once when it may not wait (ADMISSION_WAIT_MS=0)', () => {
    make({ limit: 1, waitMs: 0 });
    arrive('t1');
    expect(arrive('t1').outcome).toBe('busy');
  });

  it('never admits nor refuses a request whose client left while it waited', () => {
    make({ limit: 1 });
    const first = arrive('t1');
    const gone = arrive('t1');
    const next = arrive('t1');
    gone.place.leave();
    first.place.leave();
    clock = 1000;
    queue.sweep();
    expect([gone.outcome, next.outcome]).toEqual([undefined, 'admitted']);
    expect(queue.waiting).toBe(0);
  });

  it('admits a tenant under its share at once while a flood holds every slot, a little over the limit', () => {
    make({ limit: 4 }); // its share beside one other lane: 2; at most 4 + 2 in flight
    const flood = Array.from({ length: 10 }, () => arrive('flood'));
    const quiet = [arrive('quiet'), arrive('quiet'), arrive('quiet')];
    expect(quiet.map((p) => p.outcome)).toEqual(['admitted', 'admitted', undefined]);
    expect(queue.inFlight).toBe(6);
    // the flood gets no slot back until the replica is under its limit again, then the lane with fewer in flight
    flood[0].place.leave();
    flood[1].place.leave();
    expect([flood[4].outcome, quiet[2].outcome]).toEqual([undefined, undefined]);
    flood[2].place.leave();
    expect([flood[4].outcome, quiet[2].outcome]).toEqual(['admitted', undefined]);
    quiet[0].place.leave();
    flood[3].place.leave();
    expect(quiet[2].outcome).toBe('admitted');
  });

  it('takes turns between lanes at a limit of one: a flood waiting longer does not go first every time', () => {
    make({ limit: 1 });
    let holder = arrive('flood');
    const flood = [arrive('flood'), arrive('flood')];
    const quiet = [arrive('quiet'), arrive('quiet')];
    const order: string[] = [];
    for (const p of [...flood, ...quiet]) {
      const admit = p.admit.bind(p);
      p.admit = () => (admit(), order.push(flood.includes(p) ? 'flood' : 'quiet'));
    }
    for (let i = 0; i < 4; i++) {
      holder.place.leave();
      holder = [...flood, ...quiet].find((p) => p.outcome === 'admitted' && p.place.admitted)!;
    }
    expect(order).toEqual(['quiet', 'flood', 'quiet', 'flood']);
  });

  it('keeps the waiting room fair when full: the lane waiting most gives up its newest place', () => {
    make({ limit: 1, waitingMax: 3 });
    arrive('flood');
    const waiting = [arrive('flood'), arrive('flood'), arrive('flood')];
    const quiet = arrive('quiet');
    expect(quiet.outcome).toBeUndefined();
    expect(waiting.map((p) => p.outcome)).toEqual([undefined, undefined, 'queue_full']);
    // a lane that waits no more than the others is refused itself
    expect(arrive('flood').outcome).toBe('queue_full');
  });

  it('admits a budgeted lane no faster than its budget, even with free slots, and others meanwhile', () => {
    make({ limit: 10 });
    const first = arrive('unverified', 10); // a tenth of a second's budget: one
    const second = arrive('unverified', 10);
    const tenant = arrive('t1');
    expect([first.outcome, second.outcome, tenant.outcome]).toEqual(['admitted', undefined, 'admitted']);
    clock = 100;
    jest.advanceTimersByTime(100);
    expect(second.outcome).toBe('admitted');
  });

  it('stays consistent when an admitted request ends inside its own admission', () => {
    make({ limit: 1 });
    const holder = arrive('t1');
    const quick: Probe = Object.assign(new Probe(), {
      admit(this: Probe) {
        this.outcome = 'admitted';
        this.place.leave();
      },
    });
    quick.place = queue.enter('t2', quick);
    const after = arrive('t3');
    holder.place.leave();
    expect([quick.outcome, after.outcome]).toEqual(['admitted', 'admitted']);
    expect(queue.inFlight).toBe(1);
  });
});
