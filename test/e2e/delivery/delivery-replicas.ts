/**
 * Several replicas dispatching over one MariaDB database: each message is claimed in the database before
 * it is sent, so none is sent twice (counted at the SMTP sink), and a replica that shuts down finishes
 * the send in hand and leaves no claim behind. MySQL/MariaDB only: in-memory SQLite can't be shared.
 */
import { DeliveryDispatcher } from '../../../apps/main-service/src/message/delivery/delivery.dispatcher';
import { MessageDelivery } from '../../../apps/main-service/src/message/delivery/message-delivery.entity';
import { Email } from '../../../apps/main-service/src/message/email/email.entity';
import { createTestDatabase, TestDatabase, usingMysql } from '../../support/database';
import { startApp, TestApp } from '../../support/test-app';
import { SmtpSink, startSmtpSink, waitFor } from '../../support/delivery-sinks';

const mysqlDescribe = usingMysql() ? describe : describe.skip;
const M = '/main-service/system-api/message';
const TENANT = 'replicas';
/** The sink is on loopback: allowed as a destination in every app (the reader saves the configuration). */
const ALLOWED = { DELIVERY_ALLOWED_HOSTS: '127.0.0.1' };
const DISPATCH = { ...ALLOWED, DISPATCH_ENABLED: 'true', DISPATCH_POLL_MS: '20', DISPATCH_RETRY_BASE_MS: '20' };

mysqlDescribe('dispatchers of several replicas', () => {
  let database: TestDatabase;
  let sink: SmtpSink;
  let a: TestApp | undefined;
  let b: TestApp | undefined;
  /** Dispatches nothing: reads the shared database after the others closed. */
  let reader: TestApp;

  const emails = (rows: { subject: string }[]) =>
    reader.dataSource.getRepository(Email).insert(
      rows.map(({ subject }, i) => ({
        tenantId: TENANT,
        emailId: `rep${i}${subject.replace(/[^0-9A-Za-z]/g, '')}`,
        fromAddress: 'noreply@example.com',
        toAddresses: ['ops@example.com'],
        subject,
        content: `Body of ${subject}`,
        status: 'PENDING',
        retryCount: 0,
        revision: 1,
        createdUsername: 'producer',
        createdTime: Date.now(),
        lastModifiedUsername: 'producer',
        lastModifiedTime: Date.now(),
      })) as Partial<Email>[],
    );
  const countSent = (subjects: string[]) =>
    reader.dataSource
      .getRepository(Email)
      .createQueryBuilder('e')
      .where({ tenantId: TENANT, status: 'SENT' })
      .andWhere('e.subject IN (:...subjects)', { subjects })
      .getCount();

  beforeAll(async () => {
    database = await createTestDatabase();
    sink = await startSmtpSink();
    reader = await startApp({ ...ALLOWED, DISPATCH_ENABLED: 'false' }, { shared: database });
    const config = {
      emailConfigId: 'relay',
      name: 'relay',
      host: '127.0.0.1',
      port: sink.port,
      secure: false,
      fromAddress: 'noreply@example.com',
      enabled: true,
    };
    expect(await reader.post(`${M}/email-config/save`, config, { tenantId: TENANT, sub: 'admin' })).toMatchObject({
      status: 200,
      data: true,
    });
    a = await startApp(DISPATCH, { shared: database });
    b = await startApp(DISPATCH, { shared: database });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await reader?.close();
    await sink?.close();
    await database?.drop();
  });

  it('two dispatchers send each of 120 messages exactly once', async () => {
    const subjects = Array.from({ length: 120 }, (_, i) => `Once ${i}`);
    await emails(subjects.map((subject) => ({ subject })));
    await waitFor(
      () => countSent(subjects),
      (n) => n === subjects.length,
      'every message SENT',
      60_000,
    );
    const arrived = sink.received.map((m) => m.subject).filter((s) => subjects.includes(s));
    expect(arrived).toHaveLength(subjects.length);
    expect(new Set(arrived).size).toBe(subjects.length);
    // the bookkeeping row goes right after the SENT write
    await waitFor(
      () => reader.dataSource.getRepository(MessageDelivery).count(),
      (n) => n === 0,
      'no bookkeeping left',
    );
  });

  it('a replica that shuts down finishes the send in hand and leaves no claim', async () => {
    await b!.close();
    b = undefined;
    sink.dataDelayMs = 400;
    const holder = a!.app.get(DeliveryDispatcher).holder;
    const started = sink.dataStarted;
    await emails([{ subject: 'In flight at shutdown' }]);
    await waitFor(
      () => reader.dataSource.getRepository(MessageDelivery).countBy({ claimedBy: holder }),
      (n) => n === 1,
      'the claim',
    );
    // in hand: the message is on its way to the server (which holds it for dataDelayMs)
    await waitFor(
      async () => sink.dataStarted,
      (n) => n > started,
      'the send to begin',
    );
    await a!.close();
    a = undefined;
    expect(await countSent(['In flight at shutdown'])).toBe(1);
    expect(sink.received.filter((m) => m.subject === 'In flight at shutdown')).toHaveLength(1);
    expect(await reader.dataSource.getRepository(MessageDelivery).count()).toBe(0);
  });
});
