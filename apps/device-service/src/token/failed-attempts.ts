import { AppConfig } from '@app/common';
import { Injectable } from '@nestjs/common';

interface Window {
  failures: number;
  /** Epoch ms when the window (and any lockout) ends. */
  until: number;
}

/** More keys than any real fleet has; beyond it expired windows are swept before adding one. */
const MAX_TRACKED = 100_000;

/**
 * Failed secret attempts per number, in this process's memory (so per replica: N replicas allow up
 * to N times the attempts; docs/decisions.md). After DEVICE_SECRET_MAX_FAILURES failures within
 * DEVICE_SECRET_LOCKOUT_SECONDS the number is locked until that window ends, correct secret or not.
 */
@Injectable()
export class FailedAttempts {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly config: AppConfig) {}

  private current(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.until <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  /** Epoch ms until which the key is locked, or undefined when it may try. */
  lockedUntil(key: string, now = Date.now()): number | undefined {
    const window = this.current(key, now);
    return window && window.failures >= this.config.deviceSecretMaxFailures ? window.until : undefined;
  }

  fail(key: string, now = Date.now()): void {
    const window = this.current(key, now);
    if (window) {
      window.failures++;
      return;
    }
    if (this.windows.size >= MAX_TRACKED) this.sweep(now);
    this.windows.set(key, { failures: 1, until: now + this.config.deviceSecretLockoutMs });
  }

  /** A successful proof forgets earlier failures of the key. */
  succeed(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.until <= now) this.windows.delete(key);
    // still full of live windows (an attack over many numbers): drop the oldest rather than grow without bound
    for (const key of this.windows.keys()) {
      if (this.windows.size < MAX_TRACKED) break;
      this.windows.delete(key);
    }
  }
}
