import { AppConfig } from '@app/common';
import { FailedAttempts } from './failed-attempts';

describe('FailedAttempts', () => {
  const config = new AppConfig({ DEVICE_SECRET_MAX_FAILURES: '2', DEVICE_SECRET_LOCKOUT_SECONDS: '10' }, { port: 0 });
  const t0 = 1_000_000;

  it('locks a key after the maximum failures until the window from the first failure ends', () => {
    const attempts = new FailedAttempts(config);
    attempts.fail('k', t0);
    expect(attempts.lockedUntil('k', t0 + 1)).toBeUndefined();
    attempts.fail('k', t0 + 5_000);
    expect(attempts.lockedUntil('k', t0 + 5_001)).toBe(t0 + 10_000);
    expect(attempts.lockedUntil('k', t0 + 9_999)).toBe(t0 + 10_000);
    expect(attempts.lockedUntil('k', t0 + 10_000)).toBeUndefined();
    expect(attempts.lockedUntil('other', t0 + 5_001)).toBeUndefined();
  });

  it('starts a new window after the old one ended, and forgets a key on success', () => {
    const attempts = new FailedAttempts(config);
    attempts.fail('k', t0);
    attempts.fail('k', t0 + 10_000); // first failure of a new window
    expect(attempts.lockedUntil('k', t0 + 10_001)).toBeUndefined();
    attempts.fail('k', t0 + 10_002);
    expect(attempts.lockedUntil('k', t0 + 10_003)).toBe(t0 + 20_000);
    attempts.succeed('k');
    expect(attempts.lockedUntil('k', t0 + 10_004)).toBeUndefined();
  });

  it('tracks a bounded number of keys', () => {
    const attempts = new FailedAttempts(config);
    for (let i = 0; i < 100_010; i++) attempts.fail(`k${i}`, t0);
    expect((attempts as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThanOrEqual(100_000);
    // the newest keys are kept
    attempts.fail('k100009', t0 + 1);
    expect(attempts.lockedUntil('k100009', t0 + 2)).toBe(t0 + 10_000);
  });
});
