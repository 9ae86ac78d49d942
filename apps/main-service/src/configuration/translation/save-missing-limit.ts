import { clientKeyOf, WindowCounter } from '@app/common';
import { ExecutionContext, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail, ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';

/** saveMissing counts the reports of each client address per minute (SAVE_MISSING_RATE_LIMIT), the translation loads likewise. */
export const SAVE_MISSING_WINDOW_MS = 60_000;

/** The throttlers' names: each anonymous translation route skips the other's (ThrottlerGuard applies every one it is not told to skip). */
export const SAVE_MISSING_THROTTLER = 'saveMissing';
export const TRANSLATION_LOAD_THROTTLER = 'translationLoad';

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
 * The ThrottlerModule options of the anonymous translation routes: `limits.saveMissing` reports and `limits.load`
 * loads per client address (IPv6: per /64, the key every per-address limit uses) and minute, counted across replicas.
 */
export function translationThrottling(limits: { saveMissing: number; load: number }, dataSource: DataSource): ThrottlerModuleOptions {
  return {
    throttlers: [
      { name: SAVE_MISSING_THROTTLER, ttl: SAVE_MISSING_WINDOW_MS, limit: limits.saveMissing },
      { name: TRANSLATION_LOAD_THROTTLER, ttl: SAVE_MISSING_WINDOW_MS, limit: limits.load },
    ],
    storage: new SharedThrottlerStorage(new WindowCounter(dataSource)),
    getTracker: (request) => clientKeyOf(request as Request),
  };
}

/**
 * ThrottlerGuard whose refusal carries a plain `Retry-After` (the library names it after the throttler,
 * `Retry-After-<name>`, once there are several: no client reads that).
 */
@Injectable()
export class AddressThrottlerGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    context
      .switchToHttp()
      .getResponse<Response>()
      .setHeader('Retry-After', String(Math.max(1, detail.timeToBlockExpire)));
    return super.throwThrottlingException(context, detail);
  }
}
