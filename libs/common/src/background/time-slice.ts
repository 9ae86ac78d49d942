import { setImmediate as nextTurn } from 'node:timers/promises';

/** Longest stretch of row work between two turns of the event loop. */
export const SLICE_MS = 5;

/**
 * Long loops over rows (validation, statement building, chunked writes) share the process with every
 * other request: after SLICE_MS of work they give the event loop a turn. setImmediate is needed because
 * awaiting a settled promise (as every better-sqlite3 query and class-validator call is) only lets
 * microtasks run, never pending I/O such as new requests or health probes.
 */
export class TimeSlice {
  private started = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Settles at once while the slice lasts; otherwise after one turn of the event loop. */
  async pause(): Promise<void> {
    if (performance.now() - this.started < this.sliceMs) return;
    await nextTurn();
    this.started = performance.now();
  }
}
