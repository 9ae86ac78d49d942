/**
 * The readiness probe answers from the background checks' last results: with KAFKA_BROKERS set but no broker
 * answering, `/health/ready` is answered at once (under a second), never after a connection attempt to the broker.
 * test/e2e/imports/kafka-unreachable.ts checks what it answers.
 */
import { startApp, TestApp } from '../support/test-app';

describe('health/ready with the broker down', () => {
  let t: TestApp;
  beforeAll(async () => {
    // port 1 on loopback: connections are refused at once
    t = await startApp({ KAFKA_BROKERS: '127.0.0.1:1', KAFKA_TOPIC_PREFIX: 'unreachable.' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is answered within a second once the broker is known down', async () => {
    const ready = async () => (await t.http().get('/main-service/health/ready')).body.data?.background?.messaging?.broker;
    for (let i = 0; i < 100 && (await ready()) !== 'down'; i++) await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    expect(await ready()).toBe('down');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
