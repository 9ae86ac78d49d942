import { GAUGE_REFRESH_MS, Metrics, PeriodicReading } from '@app/common';
import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { DeliveryClaims } from './delivery-claims';
import { DeliveryChannel } from './message-delivery.entity';

/** What became of one delivery attempt: handed over, to be tried again, given up. */
export type DeliveryOutcome = 'sent' | 'retry' | 'failed';

/** Delivery's series on the service's `{prefix}/metrics` (docs/messages.md "Delivery"). */
@Injectable()
export class DeliveryMetrics {
  private readonly attempts: Counter<'channel' | 'outcome'>;

  constructor(metrics: Metrics, claims: DeliveryClaims) {
    const registers = [metrics.registry];
    this.attempts = new Counter({
      name: 'messages_sent_total',
      help: 'Delivery attempts of stored messages, by channel (email, sms) and outcome (sent, retry, failed)',
      labelNames: ['channel', 'outcome'],
      registers,
    });
    // counted across tenants at most once per GAUGE_REFRESH_MS, however often /metrics (anonymous) is scraped
    const counts = new PeriodicReading(() => claims.countPendingAcrossTenants());
    const pending: Gauge<'channel'> = new Gauge({
      name: 'messages_pending',
      help: `Stored messages waiting to be sent or retried, by channel (across tenants, counted at most every ${GAUGE_REFRESH_MS / 1000} s)`,
      labelNames: ['channel'],
      registers,
      collect: async () => {
        for (const [channel, n] of Object.entries((await counts.current()) ?? {})) pending.set({ channel }, n);
      },
    });
  }

  /** Counts one delivery attempt of a stored message. */
  attempted(channel: DeliveryChannel, outcome: DeliveryOutcome): void {
    this.attempts.inc({ channel, outcome });
  }
}
