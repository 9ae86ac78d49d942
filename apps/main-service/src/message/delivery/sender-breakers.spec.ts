import { DeliveryFailure } from './delivery-failure';
import { smtpFailure } from './email-sender';
import { httpFailure } from './sms-sender';
import { Admission, SenderBreakers } from './sender-breakers';
import { MainServiceConfig } from '../../main-service.config';

const FAILURES = 3;
const PAUSE = 1000;
const T = 'tenant-a';

describe('SenderBreakers', () => {
  let breakers: SenderBreakers;
  beforeEach(() => {
    breakers = new SenderBreakers({ dispatchBreakerFailures: FAILURES, dispatchBreakerPauseMs: PAUSE } as MainServiceConfig);
    jest.spyOn(breakers['logger'], 'warn').mockImplementation(() => undefined);
  });

  /** One attempt at configuration `cfg` (named by the message) that ends unreachable or not, at `now`. */
  const attempt = (now: number, unreachable: boolean, cfg = 'cfg1', ref: string | null = cfg): Admission | undefined => {
    const admission = breakers.admit('email', T, ref, now);
    if (admission) breakers.settle('email', T, ref, admission, { configId: cfg, unreachable }, now);
    return admission;
  };

  it('opens after the configured number of consecutive failures, and only for that configuration', () => {
    for (let i = 0; i < FAILURES - 1; i++) attempt(0, true);
    expect(breakers.paused('email', T, 0)).toEqual([]);
    attempt(0, true);
    expect(breakers.paused('email', T, 1)).toEqual(['cfg1']);
    expect(breakers.admit('email', T, 'cfg1', 1)).toBeUndefined();
    expect(breakers.admit('email', T, 'cfg2', 1)).toEqual({});
    expect(breakers.admit('sms', T, 'cfg1', 1)).toEqual({});
    expect(breakers.paused('email', 'tenant-b', 1)).toEqual([]);
  });

  it('an answer of the server between failures starts the count again', () => {
    attempt(0, true);
    attempt(0, true);
    attempt(0, false);
    attempt(0, true);
    attempt(0, true);
    expect(breakers.paused('email', T, 0)).toEqual([]);
  });

  it('after the pause lets one trial through; its failure doubles the pause, an answer closes the breaker', () => {
    for (let i = 0; i < FAILURES; i++) attempt(0, true);
    expect(breakers.admit('email', T, 'cfg1', PAUSE - 1)).toBeUndefined();
    const trial = breakers.admit('email', T, 'cfg1', PAUSE)!;
    expect(trial.trial).toBeDefined();
    // one trial at a time
    expect(breakers.admit('email', T, 'cfg1', PAUSE)).toBeUndefined();
    expect(breakers.paused('email', T, PAUSE)).toEqual(['cfg1']);
    breakers.settle('email', T, 'cfg1', trial, { configId: 'cfg1', unreachable: true }, PAUSE);
    // paused twice as long, then four times
    expect(breakers.admit('email', T, 'cfg1', 3 * PAUSE - 1)).toBeUndefined();
    expect(attempt(3 * PAUSE, true)).toBeDefined();
    expect(breakers.admit('email', T, 'cfg1', 7 * PAUSE - 1)).toBeUndefined();
    expect(attempt(7 * PAUSE, false)).toBeDefined();
    expect(breakers.paused('email', T, 7 * PAUSE)).toEqual([]);
    expect(breakers.admit('email', T, 'cfg1', 7 * PAUSE)).toEqual({});
  });

  it('a trial that was not attempted after all frees the trial slot', () => {
    for (let i = 0; i < FAILURES; i++) attempt(0, true);
    const trial = breakers.admit('email', T, 'cfg1', PAUSE)!;
    breakers.withdraw(trial);
    expect(breakers.admit('email', T, 'cfg1', PAUSE)?.trial).toBeDefined();
  });

  it('failures of attempts started before the breaker opened do not lengthen the pause', () => {
    const stragglers = [breakers.admit('email', T, 'cfg1', 0)!, breakers.admit('email', T, 'cfg1', 0)!];
    for (let i = 0; i < FAILURES; i++) attempt(0, true);
    for (const s of stragglers) breakers.settle('email', T, 'cfg1', s, { configId: 'cfg1', unreachable: true }, 10);
    expect(breakers.admit('email', T, 'cfg1', PAUSE)?.trial).toBeDefined();
  });

  it("messages naming no configuration are held with the tenant's configuration they went to", () => {
    for (let i = 0; i < FAILURES; i++) attempt(0, true, 'cfg1', null);
    expect(breakers.paused('email', T, 1)).toEqual(['cfg1', null]);
    expect(breakers.admit('email', T, null, 1)).toBeUndefined();
  });

  it('an attempt that reached no server (no configuration, no template) changes nothing', () => {
    for (let i = 0; i < FAILURES; i++) {
      const admission = breakers.admit('email', T, 'cfg1', 0)!;
      breakers.settle('email', T, 'cfg1', admission, { unreachable: false }, 0);
    }
    expect(breakers.paused('email', T, 0)).toEqual([]);
  });
});

describe('unreachable failures (what the breaker counts)', () => {
  const coded = (message: string, code: string, more: object = {}) => Object.assign(new Error(message), { code }, more);

  it('are connection failures and timeouts of nodemailer and of the HTTP provider call', () => {
    expect(smtpFailure(coded('Greeting never received', 'ETIMEDOUT')).unreachable).toBe(true);
    expect(smtpFailure(coded('connect ECONNREFUSED 127.0.0.1:25', 'ESOCKET', { originalCode: 'ECONNREFUSED' })).unreachable).toBe(true);
    expect(smtpFailure(coded('Connection closed unexpectedly', 'ECONNECTION')).unreachable).toBe(true);
    expect(httpFailure(coded('connect ECONNREFUSED', 'ECONNREFUSED')).unreachable).toBe(true);
    expect(httpFailure(Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' })).unreachable).toBe(
      true,
    );
  });

  it('are not what a server answered', () => {
    expect(smtpFailure(coded('550 mailbox unavailable', 'EENVELOPE', { responseCode: 550 })).unreachable).toBe(false);
    expect(smtpFailure(coded('Invalid login: 535 Authentication failed', 'EAUTH', { responseCode: 535 })).unreachable).toBe(false);
    expect(DeliveryFailure.of('REJECTED', 'HTTP 503').unreachable).toBe(false);
    expect(new DeliveryFailure('e-mail template 7 not found', true).unreachable).toBe(false);
  });
});
