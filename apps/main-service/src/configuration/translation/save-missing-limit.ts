import { clientKeyOf, WindowCounter } from '@app/common';
import { OnModuleDestroy } from '@nestjs/common';
import { ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { Request } from 'express';
import { DataSource } from 'typeorm';

/** saveMissing counts the reports of each client address per minute (SAVE_MISSING_RATE_LIMIT). */
export const SAVE_MISSING_WINDOW_MS = 60_000;

type ThrottlerRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * @nestjs/throttler's storage over the database's window counters, so that every replica counts the
 * same address against the same limit (the library's default storage is a map in each process). A key
 * over its limit stays refused until its window ends.
 */
export class SharedThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  constructor(private readonly counter: WindowCounter) {}

  async increment(key: string, ttl: number, limit: number, _blockDuration: number, throttlerName: string): Promise<ThrottlerRecord> {
    const now = Date.now();
    const { hits, windowEnd } = await this.counter.hit(`throttler:${throttlerName}:${key}`, ttl, now);
    const seconds = Math.max(1, Math.ceil((windowEnd - now) / 1000));
    const isBlocked = hits > limit;
    return { totalHits: hits, timeToExpire: seconds, isBlocked, timeToBlockExpire: isBlocked ? seconds : 0 };
  }

  async onModuleDestroy(): Promise<void> {
    await this.counter.settle();
  }
}

/**
 * The ThrottlerModule options of saveMissing: `limit` reports per client address (IPv6: per /64, the key
 * every per-address limit uses) and minute, counted across replicas.
 */
export function saveMissingThrottling(limit: number, dataSource: DataSource): ThrottlerModuleOptions {
  return {
    throttlers: [{ ttl: SAVE_MISSING_WINDOW_MS, limit }],
    storage: new SharedThrottlerStorage(new WindowCounter(dataSource)),
    getTracker: (request) => clientKeyOf(request as Request),
  };
}
