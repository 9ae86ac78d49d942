/**
 * device-service has no messaging (docs/messaging.md): with KAFKA_BROKERS set (the environment of a shared
 * ConfigMap) and nothing listening there, it starts, is ready, and holds no message bus or outbox relay.
 */
import { MessageBus, OutboxRelay } from '@app/common';
import { AddressInfo, createServer } from 'node:net';
import { DeviceTestApp, startDeviceApp } from '../../support/device-app';

/** A loopback port nothing listens on (taken and given back). */
const unusedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

describe('device-service with KAFKA_BROKERS pointing at nothing', () => {
  let d: DeviceTestApp;
  beforeAll(async () => {
    // even values main-service would refuse: device-service does not read KAFKA_*
    d = await startDeviceApp({ KAFKA_BROKERS: `127.0.0.1:${await unusedPort()}`, KAFKA_TOPIC_PARTITIONS: 'many' });
  });
  afterAll(async () => {
    await d?.close();
  });

  it('is ready on its database alone, with no broker check and no background parts', async () => {
    const res = await d.http().get('/device-service/health/ready');
    expect([res.status, res.body.status]).toEqual([200, 200]);
    expect(res.body.data).toEqual({
      status: 'ok',
      details: { shutdown: { status: 'up' }, database: { status: 'up' }, schema: { status: 'up' } },
    });
  });

  it('has no message bus and no outbox relay (nothing polls an outbox), and no messaging metrics', async () => {
    expect(() => d.app.get(MessageBus, { strict: false })).toThrow();
    expect(() => d.app.get(OutboxRelay, { strict: false })).toThrow();
    const metrics = (await d.http().get('/device-service/metrics')).text;
    expect(metrics).not.toMatch(/^(outbox_backlog|message_broker_up)/m);
  });
});
