import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { HealthDetails } from '../health/health-details';
import { Metrics } from '../metrics/metrics';
import { GAUGE_REFRESH_MS, PeriodicReading } from '../metrics/periodic-reading';
import { BrokerMonitor } from './broker-monitor';
import { MessageBus } from './message-bus';
import { OutboxRelay } from './outbox.relay';

/**
 * The message bus as operators see it: in readiness' `background` details and in the service's metrics. Neither
 * decides readiness: imports are taken into the outbox whatever the broker's state (docs/operations.md).
 */
@Injectable()
export class MessagingStatus {
  constructor(details: HealthDetails, metrics: Metrics, bus: MessageBus, relay: OutboxRelay, monitor: BrokerMonitor) {
    const registers = [metrics.registry];
    details.register('messaging', async () => ({
      transport: bus.transport,
      ...(bus.remote ? { broker: monitor.state, brokerStateSince: monitor.stateSince } : {}),
      // null while the database does not answer (readiness reports that): the broker's state still shows
      outboxBacklog: await relay.backlog().catch(() => null),
    }));
    // counted at most once per GAUGE_REFRESH_MS, however often /metrics (anonymous) is scraped
    const backlog = new PeriodicReading(() => relay.backlog());
    new Gauge({
      name: 'outbox_backlog',
      help: `Outbox rows not yet handed to the message bus (counted at most every ${GAUGE_REFRESH_MS / 1000} s)`,
      registers,
      async collect() {
        const n = await backlog.current();
        if (n !== undefined) this.set(n);
      },
    });
    if (bus.remote)
      new Gauge({
        name: 'message_broker_up',
        help: 'Whether the message broker answered its last check (made every 5 s): 1 yes, 0 no or not yet',
        registers,
        collect() {
          this.set(monitor.state === 'up' ? 1 : 0);
        },
      });
  }
}
