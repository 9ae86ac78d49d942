import { Injectable, Logger } from '@nestjs/common';
import { ConfigRef } from './delivery-claims';
import { growingDelay } from './growing-delay';
import { DeliveryChannel } from './message-delivery.entity';
import { MainServiceConfig } from '../../main-service.config';

/** One sender configuration's breaker: consecutive unreachable attempts while closed; its pause once open. */
interface Breaker {
  failures: number;
  /** Times it opened in a row (0: closed). */
  openings: number;
  /** Paused until then (epoch ms); after it one trial attempt goes through. */
  pausedUntil: number;
  /** The trial attempt is under way: nothing else goes to this configuration until it ends. */
  trying: boolean;
}

/** What `admit` let through: `trial` names the breaker whose trial attempt this is. */
export interface Admission {
  trial?: Breaker;
}

/** How an attempt ended for its sender configuration. */
export interface AttemptReport {
  /** The configuration the attempt went to; undefined when it never got to a server (no configuration, no template). */
  configId?: string;
  /** It failed because the server was not reached or stalled. */
  unreachable: boolean;
}

/**
 * Circuit breakers per sender configuration, in this replica's memory. A configuration whose attempts fail
 * DISPATCH_BREAKER_FAILURES times in a row by connection failure or timeout is paused for
 * DISPATCH_BREAKER_PAUSE_MS, then lets one trial attempt through: success (or any answer of the server)
 * closes it, another failure pauses it twice as long (capped at an hour). While paused, its messages are
 * not claimed, so they stay PENDING and are not charged an attempt (docs/decisions.md).
 */
@Injectable()
export class SenderBreakers {
  private readonly logger = new Logger(SenderBreakers.name);
  /** `channel/tenant` → configuration id → breaker. */
  private readonly breakers = new Map<string, Map<string, Breaker>>();
  /** `channel/tenant` → the configuration that messages naming none last went to. */
  private readonly tenantDefaults = new Map<string, string>();

  constructor(private readonly config: MainServiceConfig) {}

  /**
   * The configurations of a tenant to leave out of a scan now (paused, or holding a trial attempt);
   * null among them: the one messages naming none go to.
   */
  paused(channel: DeliveryChannel, tenantId: string, now: number): ConfigRef[] {
    const ids = [...(this.breakers.get(`${channel}/${tenantId}`) ?? [])].filter(([, b]) => blocks(b, now)).map(([id]) => id);
    const fallback = this.tenantDefaults.get(`${channel}/${tenantId}`);
    return fallback !== undefined && ids.includes(fallback) ? [...ids, null] : ids;
  }

  /** Whether a message may be attempted now (undefined: not); a paused configuration whose pause is over admits one trial. */
  admit(channel: DeliveryChannel, tenantId: string, ref: ConfigRef, now: number): Admission | undefined {
    const breaker = this.find(channel, tenantId, ref);
    if (!breaker?.openings) return {};
    if (blocks(breaker, now)) return undefined;
    breaker.trying = true;
    return { trial: breaker };
  }

  /** An admitted message that was not attempted after all (another replica claimed it): its trial slot is free again. */
  withdraw(admission: Admission): void {
    if (admission.trial) admission.trial.trying = false;
  }

  /** An attempt's outcome for its configuration. */
  settle(channel: DeliveryChannel, tenantId: string, ref: ConfigRef, admission: Admission, report: AttemptReport, now: number): void {
    this.withdraw(admission);
    const { configId } = report;
    if (configId === undefined) return;
    const tenantKey = `${channel}/${tenantId}`;
    if (ref === null) this.tenantDefaults.set(tenantKey, configId);
    let byConfig = this.breakers.get(tenantKey);
    if (!report.unreachable) {
      // the server answered: whatever it said, it is reachable
      byConfig?.delete(configId);
      if (byConfig?.size === 0) this.breakers.delete(tenantKey);
      return;
    }
    if (!byConfig) this.breakers.set(tenantKey, (byConfig = new Map()));
    let breaker = byConfig.get(configId);
    if (!breaker) byConfig.set(configId, (breaker = { failures: 0, openings: 0, pausedUntil: 0, trying: false }));
    // an attempt started before the breaker opened says nothing new; only the trial's failure reopens it
    if (breaker.openings && admission.trial !== breaker) return;
    if (!breaker.openings && ++breaker.failures < this.config.dispatchBreakerFailures) return;
    breaker.openings++;
    breaker.failures = 0;
    const pauseMs = growingDelay(this.config.dispatchBreakerPauseMs, breaker.openings);
    breaker.pausedUntil = now + pauseMs;
    this.logger.warn(`${channel} configuration ${tenantId}/${configId} unreachable: paused for ${pauseMs} ms (pause ${breaker.openings})`);
  }

  private find(channel: DeliveryChannel, tenantId: string, ref: ConfigRef): Breaker | undefined {
    const id = ref ?? this.tenantDefaults.get(`${channel}/${tenantId}`);
    return id === undefined ? undefined : this.breakers.get(`${channel}/${tenantId}`)?.get(id);
  }
}

const blocks = (b: Breaker, now: number) => b.openings > 0 && (b.pausedUntil > now || b.trying);
