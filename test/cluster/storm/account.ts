/**
 * The clients' shared account (Storm): how each call is sent and judged, the journal of what every key must be
 * once the storm is over, the import batches to wait for, the problems seen and the numbers of the summary.
 * One object all clients write to, so the final checks and the summary see every client's calls.
 */
import { Answer, call, Cluster, token } from '../cluster-support';
import { keyOf, Resource, Row } from './resources';

/** Each client's loop also ends after MAX_STEPS steps, whatever time is left. */
const MAX_STEPS = 5_000;
/** Sends of one call refused for load (503 + Retry-After) before the refusal counts as a problem. */
const BUSY_TRIES = 3;

/** What a key must be after the storm: present (one of `names`; `id`, `revision` when known) or absent. */
export interface Expected {
  present: boolean;
  names: string[];
  id?: string;
  revision?: number;
  /** Keys of one twin import: their names must all be the same alternative (one call wrote all of them last). */
  group?: string;
}

/** A record a writer created and alone changes, as it must be stored. */
export interface Held {
  r: Resource;
  tenant: string;
  id: string;
  row: Row;
  revision: number;
}

export interface Batch {
  tenant: string;
  batchId: string;
  count: number;
}

/** The clients' shared account: the journal, the problems seen, and the numbers of the summary. */
export class Storm {
  readonly journal = new Map<string, { tenant: string; r: Resource; keys: Map<string, Expected> }>();
  readonly batches: Batch[] = [];
  readonly problems: string[] = [];
  readonly counts = { requests: 0, writes: 0, refusals: 0, busy: 0, pagesProbed: 0, crossReads: 0, freshTenants: 0 };
  private readonly tokens = new Map<string, string>();

  constructor(readonly c: Cluster) {}

  /** The replicas' own ports and the gateway. */
  get anyBase(): string[] {
    return [...this.c.main, this.c.gateway];
  }

  /**
   * One call as a well-behaved client makes it: a refusal for load (503 with Retry-After, which the contract says
   * changed nothing) is sent again after the seconds it names, up to BUSY_TRIES sends; each such refusal is
   * counted in `busy`, and the storm bounds how many there may be.
   */
  async send(
    base: string,
    r: Resource,
    operation: string,
    tenant: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<Answer> {
    let auth = this.tokens.get(tenant);
    if (!auth) this.tokens.set(tenant, (auth = token(this.c.jwtSecret, tenant)));
    for (let sent = 1; ; sent++) {
      this.counts.requests++;
      let answer: Answer;
      try {
        answer = await call(`${base}${r.path}/${operation}`, { ...init, token: auth });
      } catch (error) {
        return { http: 0, error: (error as Error).message, retryAfter: null };
      }
      if (answer.http !== 503 || answer.status !== 503 || answer.retryAfter === null || sent === BUSY_TRIES) return answer;
      this.counts.busy++;
      await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter) * 1000));
    }
  }

  /** Whether the answer is a success; an answer that is neither that nor one of the `refusals` is a problem. */
  ok(answer: Answer, what: string, refusals: number[] = []): boolean {
    if (answer.http === 200 && answer.status === 200) return true;
    if (answer.http === 200 && refusals.includes(answer.status!)) this.counts.refusals++;
    else this.problem(`${what}: HTTP ${answer.http}, status ${answer.status}, ${answer.error}`);
    return false;
  }

  problem(text: string): void {
    this.problems.push(text);
  }

  check(holds: boolean, text: () => string): void {
    if (!holds) this.problem(text());
  }

  /** Journals what the key of `row` must be once the storm is over (the last call for a key sets it). */
  expectAtEnd(tenant: string, r: Resource, row: Row, expected: Expected): void {
    const scope = `${tenant} ${r.path}`;
    let entry = this.journal.get(scope);
    if (!entry) this.journal.set(scope, (entry = { tenant, r, keys: new Map() }));
    entry.keys.set(keyOf(r, row), expected);
  }

  /** A held record as acknowledged (after a create or an update). */
  stored(h: Held): void {
    this.expectAtEnd(h.tenant, h.r, h.row, { present: true, names: [String(h.row.name)], id: h.id, revision: h.revision });
  }

  removed(h: Held): void {
    this.expectAtEnd(h.tenant, h.r, h.row, { present: false, names: [] });
  }

  /** All clients at once, each running its steps one after another for `ms` (and at most MAX_STEPS of them). */
  async run(clients: ((i: number) => Promise<void>)[], ms: number): Promise<void> {
    const until = Date.now() + ms;
    await Promise.all(
      clients.map(async (step) => {
        for (let i = 0; i < MAX_STEPS && Date.now() < until; i++) await step(i);
      }),
    );
  }
}
