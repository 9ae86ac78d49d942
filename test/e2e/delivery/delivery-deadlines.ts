/**
 * The deadline of every attempt (DISPATCH_ATTEMPT_TIMEOUT_MS, short here): a server that keeps an attempt
 * alive without ever going idle (an SMTP server feeding its EHLO reply a line at a time, an SMS provider
 * trickling its answer) has the connection closed at the deadline; the attempt fails as TIMEOUT and is
 * retried per the DISPATCH_* rules, one attempt at a time, and nothing is sent twice; the workers it held are
 * free again, so other tenants are served. A replica counts its own running attempts against the tenant cap
 * whatever their claim rows say, and shutdown waits for an attempt no longer than the deadline.
 * The servers listen on 127.0.0.1, which DELIVERY_ALLOWED_HOSTS allows.
 */
import { MessageDelivery } from '../../../apps/main-service/src/message/delivery/message-delivery.entity';
import { Email } from '../../../apps/main-service/src/message/email/email.entity';
import {
  DripSmtpServer,
  SmsProvider,
  SmtpSink,
  startDripSmtpServer,
  startSmsProvider,
  startSmtpSink,
  startTricklingProvider,
  TricklingProvider,
  waitFor,
} from '../../support/delivery-sinks';
import { startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';
import { MoreThan } from 'typeorm';

const M = '/main-service/system-api/message';
const DEADLINE_MS = 1000;
const DISPATCH = {
  DISPATCH_ENABLED: 'true',
  DISPATCH_POLL_MS: '20',
  DISPATCH_RETRY_BASE_MS: '20',
  DISPATCH_MAX_RETRIES: '2',
  DISPATCH_ATTEMPT_TIMEOUT_MS: String(DEADLINE_MS),
  // every attempt here times out, which the breaker counts: it would pause the configurations before the retries run out
  DISPATCH_BREAKER_FAILURES: '100',
  DELIVERY_ALLOWED_HOSTS: '127.0.0.1',
};
/** Far more than the deadline, for a busy machine: an attempt that ends later than this was not bounded by it. */
const SLACK_MS = 4000;

const admin = (tenantId: string): Claims => ({ tenantId, sub: 'admin' });

/** The requests of one app, for the tests below. */
function client(app: () => TestApp) {
  const ok = async (promise: Promise<{ status: number; data: unknown }>) =>
    expect(await promise).toMatchObject({ status: 200, data: true });
  return {
    emailConfig: (tenantId: string, port: number) =>
      ok(
        app().post(
          `${M}/email-config/save`,
          {
            emailConfigId: 'relay',
            name: 'relay',
            host: '127.0.0.1',
            port,
            secure: false,
            fromAddress: 'noreply@example.com',
            enabled: true,
          },
          admin(tenantId),
        ),
      ),
    async email(tenantId: string, subject: string): Promise<string> {
      const emailId = `em${Math.random().toString(36).slice(2, 12)}`;
      const body = { emailId, fromAddress: 'noreply@example.com', toAddresses: ['alice@example.com'], subject, content: 'x' };
      await ok(app().post(`${M}/email/save`, body, admin(tenantId)));
      return emailId;
    },
    async smsAccount(tenantId: string, endpoint: string): Promise<void> {
      const config = {
        smsConfigId: 'gateway',
        name: 'gateway',
        provider: 'http',
        endpoint,
        accessKeyId: `key-${tenantId}`,
        accessKeySecret: 'provider-Secret-0042',
        enabled: true,
      };
      await ok(app().post(`${M}/sms-config/save`, config, admin(tenantId)));
      await ok(app().post(`${M}/sms-package/save`, { smsPackageId: 'pkg', name: 'pkg', totalCount: 10 }, admin(tenantId)));
    },
    async sms(tenantId: string, content: string): Promise<string> {
      const smsId = `sms${Math.random().toString(36).slice(2, 12)}`;
      await ok(app().post(`${M}/sms/save`, { smsId, phoneNumbers: ['+8613800138000'], content }, admin(tenantId)));
      return smsId;
    },
    stored: async (tenantId: string, segment: string, id: string) =>
      (await app().get(`${M}/${segment}/getById?id=${id}`, admin(tenantId))).data,
  };
}

describe('the deadline of an attempt', () => {
  let t: TestApp;
  let drip: DripSmtpServer;
  let sink: SmtpSink;
  let trickling: TricklingProvider;
  let provider: SmsProvider;
  const c = client(() => t);
  const settled = (tenantId: string, segment: string, id: string) =>
    waitFor(
      () => c.stored(tenantId, segment, id),
      (m) => m.status !== 'PENDING',
      `${segment} ${id} to settle`,
    );

  beforeAll(async () => {
    [drip, sink, trickling, provider] = await Promise.all([
      startDripSmtpServer(),
      startSmtpSink(),
      startTricklingProvider(),
      startSmsProvider(),
    ]);
    t = await startApp(DISPATCH);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([drip?.close(), sink?.close(), trickling?.close(), provider?.close()]);
  });

  it('an SMTP server that feeds its EHLO reply a line at a time: each attempt ends at the deadline as TIMEOUT, its connection closed; retried, then FAILED; nothing sent', async () => {
    await c.emailConfig('drip', drip.port);
    const started = Date.now();
    const emailId = await c.email('drip', 'Drip-fed');
    const email = await settled('drip', 'email', emailId);
    expect(email).toMatchObject({ status: 'FAILED', retryCount: 2, errorMessage: 'TIMEOUT', sendTime: null });
    // two attempts, each held to the deadline and no longer
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(2 * DEADLINE_MS);
    expect(took).toBeLessThan(2 * (DEADLINE_MS + SLACK_MS));
    // one connection per attempt, one at a time, each closed by the client; nothing got past EHLO
    expect(drip).toMatchObject({ connections: 2, maxOpen: 1, open: 0, closedByClient: 2, commands: [] });
  });

  it("every worker held by such servers is free again at the deadline: another tenant's e-mail is SENT", async () => {
    await c.emailConfig('drip-a', drip.port);
    await c.emailConfig('drip-b', drip.port);
    await c.emailConfig('served', sink.port);
    // the tenant cap is 4 and a replica has 8 workers: these 8 e-mails (written at once, as a producer would) take them all
    const held = ['drip-a', 'drip-b'].flatMap((tenantId) => [0, 1, 2, 3].map((i) => ({ tenantId, emailId: `held${i}` })));
    const now = Date.now();
    await t.dataSource.getRepository(Email).insert(
      held.map(({ tenantId, emailId }) => ({
        tenantId,
        emailId,
        fromAddress: 'noreply@example.com',
        toAddresses: ['ops@example.com'],
        subject: emailId,
        content: 'x',
        status: 'PENDING',
        retryCount: 0,
        revision: 1,
        createdUsername: 'producer',
        createdTime: now,
        lastModifiedUsername: 'producer',
        lastModifiedTime: now,
      })) as Partial<Email>[],
    );
    await waitFor(
      () => t.dataSource.getRepository(MessageDelivery).countBy({ claimedUntil: MoreThan(Date.now()) }),
      (n) => n === 8,
      'every worker taken',
    );
    const emailId = await c.email('served', 'Served after all');
    expect(await settled('served', 'email', emailId)).toMatchObject({ status: 'SENT' });
    expect(sink.received.map((m) => m.subject)).toContain('Served after all');
    for (const { tenantId, emailId: id } of held)
      expect(await settled(tenantId, 'email', id)).toMatchObject({ status: 'FAILED', retryCount: 2, errorMessage: 'TIMEOUT' });
    await waitFor(
      async () => drip.open,
      (n) => n === 0,
      'every drip-fed connection closed',
    );
    expect(drip.commands).toEqual([]);
  });

  it("an SMS provider that trickles its answer: each attempt ends at the deadline as TIMEOUT; one request per attempt, one at a time; units given back; another tenant's SMS is SENT meanwhile", async () => {
    await c.smsAccount('trickled', trickling.endpoint);
    await c.smsAccount('prompt', provider.endpoint);
    const started = Date.now();
    const smsId = await c.sms('trickled', 'Trickled');
    await waitFor(
      async () => trickling.open,
      (n) => n === 1,
      'the first attempt',
    );
    const promptId = await c.sms('prompt', 'Prompt');
    expect(await settled('prompt', 'sms', promptId)).toMatchObject({ status: 'SENT' });
    expect(await settled('trickled', 'sms', smsId)).toMatchObject({
      status: 'FAILED',
      retryCount: 2,
      errorMessage: 'TIMEOUT',
      providerMessageId: null,
    });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(2 * DEADLINE_MS);
    expect(took).toBeLessThan(2 * (DEADLINE_MS + SLACK_MS));
    expect(trickling).toMatchObject({ requests: 2, maxOpen: 1, open: 0, closedByClient: 2 });
    expect(await c.stored('trickled', 'sms-package', 'pkg')).toMatchObject({ usedCount: 0 });
  });
});

describe('running attempts, the tenant cap and shutdown', () => {
  /** Long enough for the steps a test takes while an attempt runs. */
  const LONG_DEADLINE_MS = 3000;
  let t: TestApp | undefined;
  let drip: DripSmtpServer;
  const c = client(() => t!);

  beforeAll(async () => {
    drip = await startDripSmtpServer();
    t = await startApp({
      ...DISPATCH,
      DISPATCH_ATTEMPT_TIMEOUT_MS: String(LONG_DEADLINE_MS),
      DISPATCH_TENANT_IN_FLIGHT_MAX: '1',
      DISPATCH_MAX_RETRIES: '1',
    });
  });
  afterAll(async () => {
    await t?.close();
    await drip?.close();
  });

  it('a replica counts its own running attempt against the tenant cap even when its claim row has lapsed', async () => {
    await c.emailConfig('lapsed', drip.port);
    const first = await c.email('lapsed', 'First');
    await waitFor(
      async () => drip.open,
      (n) => n === 1,
      'the first attempt',
    );
    // its claim is no longer in force (nor due again), as after a database that stalled past the lease
    await t!.dataSource
      .getRepository(MessageDelivery)
      .update({ tenantId: 'lapsed', messageId: first }, { claimedUntil: 0, nextAttemptTime: Date.now() + 600_000 });
    const second = await c.email('lapsed', 'Second');
    await waitFor(
      () => c.stored('lapsed', 'email', first),
      (e) => e.status === 'FAILED',
      'the first attempt to end',
    );
    // the tenant's one place stayed taken while the first attempt ran: the second waited for it
    await waitFor(
      () => c.stored('lapsed', 'email', second),
      (e) => e.status === 'FAILED',
      'the second attempt to end',
    );
    expect(drip).toMatchObject({ connections: 2, maxOpen: 1 });
  });

  it('shutdown waits for an attempt in hand no longer than the deadline, and the connection is closed', async () => {
    const connections = drip.connections;
    await c.email('lapsed', 'At shutdown');
    await waitFor(
      async () => drip.connections,
      (n) => n > connections,
      'an attempt in hand',
    );
    const closing = Date.now();
    await t!.close();
    t = undefined;
    expect(Date.now() - closing).toBeLessThan(LONG_DEADLINE_MS + SLACK_MS);
    await waitFor(
      async () => drip.open,
      (n) => n === 0,
      'the connection closed',
    );
  });
});
