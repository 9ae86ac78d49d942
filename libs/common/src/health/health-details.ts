import { Injectable } from '@nestjs/common';

/** Reads the current state of one part the service runs in the background; resolves to a JSON-able value. */
export type DetailReader = () => Promise<unknown>;

/**
 * What readiness shows besides its checks: parts a module registers (the message bus and its outbox) whose
 * state operators want to see on the probe, but which decide nothing, because no answer of the service
 * waits on them. Each is read with a time limit; one that fails or is late shows as `null`.
 */
@Injectable()
export class HealthDetails {
  private readonly readers = new Map<string, DetailReader>();

  register(name: string, read: DetailReader): void {
    this.readers.set(name, read);
  }

  /** Every registered part's state, read in parallel; undefined when none is registered. */
  async read(timeoutMs: number): Promise<Record<string, unknown> | undefined> {
    if (!this.readers.size) return undefined;
    const entries = await Promise.all(
      [...this.readers].map(async ([name, read]) => [name, await withTimeout(read(), timeoutMs).catch(() => null)] as const),
    );
    return Object.fromEntries(entries);
  }
}

/** The promise's value, or null once `ms` have passed first (the promise goes on, unwaited). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
