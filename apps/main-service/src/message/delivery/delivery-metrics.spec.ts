import { Metrics, ServerConfig } from '@app/common';
import { DataSource } from 'typeorm';
import { DeliveryClaims } from './delivery-claims';
import { DeliveryMetrics } from './delivery-metrics';

describe('DeliveryMetrics', () => {
  const metricsOf = () => new Metrics({ metricsEnabled: false } as ServerConfig, { options: { type: 'better-sqlite3' } } as DataSource);

  it('the library registers no message series of its own', async () => {
    expect(await metricsOf().registry.metrics()).not.toContain('messages_');
  });

  it('adds the attempts and the pending messages to the service registry, under the documented names, labels and help', async () => {
    const metrics = metricsOf();
    const claims = { countPendingAcrossTenants: async () => ({ email: 3, sms: 0 }) } as unknown as DeliveryClaims;
    const delivery = new DeliveryMetrics(metrics, claims);
    delivery.attempted('email', 'sent');
    delivery.attempted('sms', 'retry');
    delivery.attempted('sms', 'retry');
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      '# HELP messages_sent_total Delivery attempts of stored messages, by channel (email, sms) and outcome (sent, retry, failed)',
    );
    expect(text).toContain('messages_sent_total{channel="email",outcome="sent"} 1');
    expect(text).toContain('messages_sent_total{channel="sms",outcome="retry"} 2');
    expect(text).toContain(
      '# HELP messages_pending Stored messages waiting to be sent or retried, by channel (across tenants, counted at most every 15 s)',
    );
    expect(text).toContain('messages_pending{channel="email"} 3');
    expect(text).toContain('messages_pending{channel="sms"} 0');
  });

  it('keeps the last pending counts while the database does not answer', async () => {
    const metrics = metricsOf();
    let answer: () => Promise<Record<string, number>> = async () => ({ email: 2, sms: 1 });
    new DeliveryMetrics(metrics, { countPendingAcrossTenants: () => answer() } as unknown as DeliveryClaims);
    await metrics.registry.metrics();
    answer = () => Promise.reject(new Error('database down'));
    expect(await metrics.registry.metrics()).toContain('messages_pending{channel="email"} 2');
  });
});
