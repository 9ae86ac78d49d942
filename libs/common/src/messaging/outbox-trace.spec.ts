/**
 * The outbox carries the storing request's W3C trace context to the message's handling, on the leg's real
 * database (in-memory SQLite, or a fresh MySQL/MariaDB database when DB_URL is set): the row keeps it, the
 * relay publishes the row in that trace, and the handler runs in a span (`apply <topic>`) that is its child.
 * Without tracing the column stays null.
 */
import { SpanKind, trace } from '@opentelemetry/api';
import { DataSource } from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase } from '../../../../test/support/database';
import { InMemoryTracing, startInMemoryTracing } from '../../../../test/support/in-memory-tracing';
import { TENANT_ID } from '../tracing/span-attributes';
import { BusMessage, InProcessMessageBus } from './message-bus';
import { MESSAGING_ENTITIES } from './messaging.module';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxRelay } from './outbox.relay';

const TOPIC = 'fixture.import';

let database: TestDatabase;
let dataSource: DataSource;
let relay: OutboxRelay;
let tracing: InMemoryTracing | undefined;
/** Each handled message with the trace it was handled in. */
const handled: { message: BusMessage; traceId?: string }[] = [];

const store = (key: string, payload: unknown) => dataSource.transaction((manager) => relay.add(manager, TOPIC, key, payload));
const storedRow = async (marker: string) =>
  (await dataSource.getRepository(OutboxMessage).find({ where: { topic: TOPIC } })).find((row) => row.payload.includes(marker))!;

async function handledOf(marker: string): Promise<{ message: BusMessage; traceId?: string }> {
  relay.kick();
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const found = handled.find((h) => h.message.value.includes(marker));
    if (found) return found;
  }
  throw new Error(`message ${marker} was not handled`);
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = await fixtureDataSource(database, MESSAGING_ENTITIES);
  const bus = new InProcessMessageBus();
  await bus.subscribe(TOPIC, async (message) => {
    handled.push({ message, traceId: trace.getActiveSpan()?.spanContext().traceId });
  });
  relay = new OutboxRelay(dataSource, bus);
  relay.onApplicationBootstrap();
});

afterAll(async () => {
  await tracing?.stop();
  await relay?.beforeApplicationShutdown();
  await dataSource?.destroy();
  await database?.drop();
});

it('without tracing, a row keeps no trace context', async () => {
  await store('tenant-a', { marker: 'm-off' });
  expect((await storedRow('m-off')).traceContext).toBeNull();
  expect((await handledOf('m-off')).traceId).toBeUndefined();
});

describe('with tracing', () => {
  beforeAll(() => {
    tracing = startInMemoryTracing();
  });

  it('a row stores the W3C context of the request that stored it', async () => {
    const request = await trace.getTracer('test').startActiveSpan('POST importList', async (span) => {
      await store('tenant-b', { marker: 'm-stored' });
      span.end();
      return span.spanContext();
    });
    const carried = JSON.parse((await storedRow('m-stored')).traceContext!);
    expect(carried).toEqual({ traceparent: `00-${request.traceId}-${request.spanId}-01` });
  });

  it('the relay hands the row over in that trace: the handler runs in an apply span, child of the request', async () => {
    const request = await trace.getTracer('test').startActiveSpan('POST importList', async (span) => {
      await store('tenant-c', { marker: 'm-continued' });
      span.end();
      return span.spanContext();
    });
    expect((await handledOf('m-continued')).traceId).toBe(request.traceId);
    const apply = tracing!.spans().find((s) => s.name === `apply ${TOPIC}` && s.spanContext().traceId === request.traceId);
    expect(apply).toMatchObject({
      kind: SpanKind.CONSUMER,
      attributes: { 'messaging.destination.name': TOPIC, [TENANT_ID]: 'tenant-c' },
      parentSpanContext: expect.objectContaining({ spanId: request.spanId }),
    });
  });

  it('a row stored outside any trace is handled in a trace of its own', async () => {
    await store('tenant-d', { marker: 'm-orphan' });
    expect((await storedRow('m-orphan')).traceContext).toBeNull();
    const { traceId } = await handledOf('m-orphan');
    const apply = tracing!.spans().find((s) => s.name === `apply ${TOPIC}` && s.spanContext().traceId === traceId);
    expect(apply?.parentSpanContext).toBeUndefined();
  });
});
