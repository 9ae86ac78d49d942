import type { ServerResponse } from 'node:http';

/**
 * The responses of one server that have not closed yet, for a draining server to mark (stopListening). Kept in an
 * array whose slots are reused, not in a Set: V8 makes a Set's table anew as entries come and go, and each table it
 * leaves still points at the next one and at the responses it held. Under a steady stream of requests that chain
 * reaches every response since the last full collection from the long-lived first table, so every young-generation
 * collection copied them all, each with its request: about 4 MB and a 5 ms pause every 90 ms at 11,000 requests/s,
 * which doubled getById's p99 (docs/performance.md).
 */
export class OpenResponses {
  private readonly slots: (ServerResponse | undefined)[] = [];
  /** Indexes of emptied slots, reused first: the array grows only to the most responses open at once. */
  private readonly free: number[] = [];

  /** Holds `res` until it closes. */
  add(res: ServerResponse): void {
    const slot = this.free.length > 0 ? this.free.pop()! : this.slots.length;
    this.slots[slot] = res;
    // a response closes once: no need for once's wrapper
    res.on('close', () => {
      this.slots[slot] = undefined;
      this.free.push(slot);
    });
  }

  /** The responses not closed yet. */
  *[Symbol.iterator](): Iterator<ServerResponse> {
    for (const res of this.slots) if (res) yield res;
  }

  /** Slots in use or free: the most responses that were open at once. */
  get capacity(): number {
    return this.slots.length;
  }
}
