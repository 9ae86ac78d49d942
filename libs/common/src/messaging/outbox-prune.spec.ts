/**
 * The relay deletes sent outbox rows once they are a day old, in statements of at most PRUNE_ROWS rows each, so every
 * one stays inside the statement deadline (DB_STATEMENT_TIMEOUT_MS) however many are due; a full batch is followed by
 * the next at the next idle pass. On the leg's database (in-memory SQLite, or a fresh MySQL/MariaDB database).
 */
import { DataSource, DeleteResult } from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase } from '../../../../test/support/database';
import { InProcessMessageBus } from './message-bus';
import { MESSAGING_ENTITIES } from './messaging.module';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxRelay, PRUNE_ROWS } from './outbox.relay';

const DAY_MS = 24 * 3600_000;
/** Sent more than a day ago: due. Two full batches and a partial one. */
const OLD = 2 * PRUNE_ROWS + 7;
/** Sent within the day: kept. */
const RECENT = 5;

let database: TestDatabase;
let dataSource: DataSource;
let relay: OutboxRelay;

const sent = (i: number, sentTime: number) => ({
  topic: 'fixture.prune',
  messageKey: 'tenant-a',
  payload: JSON.stringify({ i }),
  status: 'SENT' as const,
  attempts: 0,
  nextAttemptTime: 0,
  createdTime: sentTime,
  sentTime,
  traceContext: null,
});

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = await fixtureDataSource(database, MESSAGING_ENTITIES);
  const now = Date.now();
  const rows = [
    ...Array.from({ length: OLD }, (_, i) => sent(i, now - 2 * DAY_MS + i)),
    ...Array.from({ length: RECENT }, (_, i) => sent(i, now - 3600_000)),
  ];
  for (let i = 0; i < rows.length; i += 100) await dataSource.getRepository(OutboxMessage).insert(rows.slice(i, i + 100));
});

afterAll(async () => {
  await relay?.beforeApplicationShutdown();
  await dataSource?.destroy();
  await database?.drop();
});

it('deletes the sent rows older than a day, at most PRUNE_ROWS per statement, and keeps the recent ones', async () => {
  const repo = dataSource.getRepository(OutboxMessage);
  const deletes = jest.spyOn(repo, 'delete');
  relay = new OutboxRelay(dataSource, new InProcessMessageBus());
  relay.onApplicationBootstrap(); // its first pass prunes at once
  const countOld = () =>
    repo
      .createQueryBuilder('m')
      .where('m.sentTime < :cutoff', { cutoff: Date.now() - DAY_MS })
      .getCount();
  for (const until = Date.now() + 10_000; (await countOld()) > 0 && Date.now() < until;) {
    relay.kick();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(await countOld()).toBe(0);
  expect(await repo.count()).toBe(RECENT);
  const removed = await Promise.all(deletes.mock.results.map(async (result) => ((await result.value) as DeleteResult).affected));
  expect(removed).toEqual([PRUNE_ROWS, PRUNE_ROWS, OLD - 2 * PRUNE_ROWS]);
});
