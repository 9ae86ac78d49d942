/** Why a request was refused instead of served: it waited its whole budget, or the waiting room was full. */
export type RefusalReason = 'busy' | 'queue_full';

/** How far above its limit the queue may go to admit a lane under its share at once (a part of the limit). */
export const OVER_LIMIT_SHARE = 0.5;

/** Refusals of one sweep before the event loop goes on with other work. */
const SWEEP_CHUNK = 64;

/** What the queue does with a request: exactly one of these is called, once (none when it left first). */
export interface Entrant {
  admit(): void;
  refuse(reason: RefusalReason): void;
}

export interface AdmissionOptions {
  /** Requests in flight at most. */
  limit: number;
  /** Longest wait for admission; 0: none (refused at once when no place is free). */
  waitMs: number;
  /** Requests waiting at most. */
  waitingMax: number;
  now?: () => number;
}

/** A per-second budget: a token bucket holding a tenth of a second's worth (at least one). */
class Budget {
  private readonly capacity: number;
  private tokens: number;

  constructor(
    private readonly perSecond: number,
    private at: number,
  ) {
    this.capacity = Math.max(1, perSecond / 10);
    this.tokens = this.capacity;
  }

  allows(now: number): boolean {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) * this.perSecond) / 1000);
    this.at = now;
    return this.tokens >= 1;
  }

  take(): void {
    this.tokens -= 1;
  }

  /** Milliseconds until the next token (after allows() said no). */
  msUntilNext(): number {
    return Math.ceil(((1 - this.tokens) * 1000) / this.perSecond);
  }
}

type State = 'waiting' | 'admitted' | 'done';

/** One request's place: waiting in its lane, admitted (holding a slot), or done. */
export class Place {
  state: State = 'waiting';

  constructor(
    private readonly queue: AdmissionQueue,
    readonly lane: Lane,
    readonly entrant: Entrant,
    readonly since: number,
  ) {}

  get admitted(): boolean {
    return this.state === 'admitted';
  }

  /** The request ended (answered, or its client gone): a waiting place is dropped, an admitted one frees its slot. */
  leave(): void {
    this.queue.leave(this);
  }
}

/** The requests of one tenant (or one kind of caller): how many it has in flight and its waiting ones, oldest first. */
class Lane {
  inFlight = 0;
  /** When the lane last had a request admitted (the queue's admission count then): among equals, the longest unserved goes. */
  servedAt = -1;
  /** Waiting places, oldest first; a place that left stays until it reaches an end (`count` excludes it). */
  private readonly places: Place[] = [];
  private head = 0;
  count = 0;

  constructor(
    readonly key: string,
    readonly budget?: Budget,
  ) {}

  push(place: Place): void {
    this.places.push(place);
    this.count++;
  }

  /** The oldest waiting place, left in the lane. */
  oldest(): Place | undefined {
    while (this.head < this.places.length && this.places[this.head].state !== 'waiting') this.head++;
    this.compact();
    return this.places[this.head];
  }

  /** Takes the oldest waiting place out. */
  shift(): Place | undefined {
    const place = this.oldest();
    if (place) {
      this.head++;
      this.count--;
    }
    return place;
  }

  /** Takes the newest waiting place out. */
  pop(): Place | undefined {
    while (this.places.length > this.head) {
      const place = this.places.pop()!;
      if (place.state === 'waiting') {
        this.count--;
        return place;
      }
    }
    return undefined;
  }

  /** Drops the slots of places already taken, once they are half the array (amortised O(1) per place). */
  private compact(): void {
    if (this.head > 64 && this.head * 2 > this.places.length) {
      this.places.splice(0, this.head);
      this.head = 0;
    }
  }
}

/**
 * Admission of one replica's requests (docs/decisions.md "Overload"): at most `limit` in flight; beyond it a request
 * waits, at no cost but its open connection, at most `waitMs` and among at most `waitingMax` others, and is refused
 * then. A freed slot goes to the lane with the fewest requests in flight (among equals, the one served longest ago),
 * and a lane under its share is admitted at once, a little over the limit if need be, so a tenant under its share
 * never waits behind one that floods. A lane may have a per-second budget: it is admitted
 * no faster than that, whether or not slots are free (callers not yet verified: their verification's cost is bounded).
 */
export class AdmissionQueue {
  private inFlightCount = 0;
  private waitingCount = 0;
  private readonly lanes = new Map<string, Lane>();
  /** Lanes with waiting places. */
  private readonly queued = new Set<Lane>();
  private readonly now: () => number;
  private sweeper?: NodeJS.Timeout;
  /** The rest of a sweep, after the event loop's other work. */
  private chunk?: NodeJS.Immediate;
  private budgetTimer?: NodeJS.Timeout;
  private dispatching = false;
  private admissions = 0;

  constructor(private readonly options: AdmissionOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  get limit(): number {
    return this.options.limit;
  }
  get inFlight(): number {
    return this.inFlightCount;
  }
  get waiting(): number {
    return this.waitingCount;
  }

  /** A request of lane `key` arrives: admitted now, waiting, or refused at once (queue_full). */
  enter(key: string, entrant: Entrant, perSecond?: number): Place {
    const now = this.now();
    const lane = this.laneOf(key, perSecond, now);
    const place = new Place(this, lane, entrant, now);
    // free slots mean no lane that may go is waiting (dispatch would have admitted it): this one goes first; so does
    // a lane under its share while others hold the slots, up to OVER_LIMIT_SHARE more (they get none until it is over)
    if (
      lane.count === 0 &&
      (!lane.budget || lane.budget.allows(now)) &&
      (this.inFlightCount < this.options.limit || this.underShare(lane))
    ) {
      this.start(place);
      return place;
    }
    if (this.options.waitMs === 0 || (this.waitingCount >= this.options.waitingMax && !this.evictFor(lane))) {
      place.state = 'done';
      this.forget(lane);
      entrant.refuse(this.options.waitMs === 0 ? 'busy' : 'queue_full');
      return place;
    }
    lane.push(place);
    this.waitingCount++;
    this.queued.add(lane);
    this.sweepWhileWaiting();
    if (this.inFlightCount < this.options.limit) this.dispatch();
    return place;
  }

  leave(place: Place): void {
    const { lane } = place;
    if (place.state === 'waiting') {
      place.state = 'done';
      lane.count--;
      this.waitingCount--;
      if (lane.count === 0) this.queued.delete(lane);
      this.forget(lane);
    } else if (place.state === 'admitted') {
      place.state = 'done';
      lane.inFlight--;
      this.inFlightCount--;
      this.dispatch();
      this.forget(lane);
    }
  }

  /** Ends the timers (the app is closing); waiting requests stay until their connections close. */
  close(): void {
    clearInterval(this.sweeper);
    clearTimeout(this.budgetTimer);
    clearImmediate(this.chunk);
    this.sweeper = this.budgetTimer = this.chunk = undefined;
  }

  /**
   * Whether `lane` holds less than its share of the limit (an equal part for each lane with requests in flight or
   * waiting) and the replica is within its limit plus OVER_LIMIT_SHARE of it. A tenant under its share would
   * otherwise wait for the next slot while one over its share refills every slot it frees the moment it does.
   */
  private underShare(lane: Lane): boolean {
    if (this.inFlightCount >= this.options.limit + Math.floor(this.options.limit * OVER_LIMIT_SHARE)) return false;
    let active = 0;
    for (const other of this.lanes.values()) if (other === lane || other.inFlight > 0 || other.count > 0) active++;
    return lane.inFlight < this.options.limit / active;
  }

  private laneOf(key: string, perSecond: number | undefined, now: number): Lane {
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = new Lane(key, perSecond === undefined ? undefined : new Budget(perSecond, now))));
    return lane;
  }

  /** An idle lane without a budget is dropped (a budget's lane is kept, or leaving and coming back would refill it). */
  private forget(lane: Lane): void {
    if (lane.inFlight === 0 && lane.count === 0 && !lane.budget) this.lanes.delete(lane.key);
  }

  private start(place: Place): void {
    place.state = 'admitted';
    place.lane.budget?.take();
    place.lane.inFlight++;
    place.lane.servedAt = this.admissions++;
    this.inFlightCount++;
    place.entrant.admit();
  }

  /** Free slots to the waiting lanes, fewest in flight first; a lane out of budget is tried again when it has one. */
  private dispatch(): void {
    if (this.dispatching) return; // an admitted request that ended at once: the loop below goes on
    this.dispatching = true;
    try {
      while (this.inFlightCount < this.options.limit) {
        const lane = this.pick(this.now());
        if (!lane) break;
        const place = lane.shift()!;
        this.waitingCount--;
        if (lane.count === 0) this.queued.delete(lane);
        this.start(place);
      }
    } finally {
      this.dispatching = false;
    }
    if (this.inFlightCount < this.options.limit && this.queued.size) this.dispatchWhenBudgeted();
  }

  /** The waiting lane with the fewest in flight; among equals the one served longest ago (turns, even at a limit of 1). */
  private pick(now: number): Lane | undefined {
    let best: Lane | undefined;
    for (const lane of this.queued) {
      if (lane.budget && !lane.budget.allows(now)) continue;
      if (!best || lane.inFlight < best.inFlight || (lane.inFlight === best.inFlight && lane.servedAt < best.servedAt)) best = lane;
    }
    return best;
  }

  /** Slots are free but every waiting lane is out of budget: dispatch again when the first budget has a token. */
  private dispatchWhenBudgeted(): void {
    if (this.budgetTimer) return;
    let wait = Infinity;
    for (const lane of this.queued) if (lane.budget) wait = Math.min(wait, lane.budget.msUntilNext());
    if (wait === Infinity) return;
    this.budgetTimer = setTimeout(() => {
      this.budgetTimer = undefined;
      this.dispatch();
    }, wait);
    this.budgetTimer.unref();
  }

  /** The waiting room is full: the lane waiting most gives up its newest place, if it waits more than `lane` would. */
  private evictFor(lane: Lane): boolean {
    let largest: Lane | undefined;
    for (const other of this.queued) if (!largest || other.count > largest.count) largest = other;
    if (!largest || largest === lane || largest.count <= lane.count + 1) return false;
    const evicted = largest.pop()!;
    evicted.state = 'done';
    this.waitingCount--;
    if (largest.count === 0) this.queued.delete(largest);
    evicted.entrant.refuse('queue_full');
    return true;
  }

  /** Refuses every place that waited its whole budget, checked a few times per budget while any wait. */
  private sweepWhileWaiting(): void {
    if (this.sweeper) return;
    const every = Math.max(5, Math.min(50, Math.floor(this.options.waitMs / 10)));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  /**
   * Refuses the places past their wait (the oldest of each lane first), SWEEP_CHUNK at a time with the event loop's
   * other work between: a crowd that arrived together expires together, and thousands of refusals in one turn would
   * hold up the probes and the admitted requests. Stops once nobody waits.
   */
  sweep(): void {
    this.chunk = undefined;
    const deadline = this.now() - this.options.waitMs;
    let refused = 0;
    for (const lane of [...this.queued]) {
      for (let place = lane.oldest(); place && place.since <= deadline; place = lane.oldest()) {
        if (refused++ === SWEEP_CHUNK) return void (this.chunk ??= setImmediate(() => this.sweep()));
        lane.shift();
        place.state = 'done';
        this.waitingCount--;
        if (lane.count === 0) this.queued.delete(lane);
        place.entrant.refuse('busy');
      }
      this.forget(lane);
    }
    if (this.waitingCount === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}
