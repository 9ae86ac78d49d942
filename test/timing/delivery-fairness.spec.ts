/**
 * Delivery shared fairly among tenants: a tenant whose SMTP server accepts connections and never greets,
 * with many e-mails waiting, holds neither the dispatcher nor another tenant's e-mail; its configuration is
 * paused after repeated failures (counted as connections at the stalling server) and its e-mails wait
 * PENDING without being charged; a tenant at its in-flight cap (counting other replicas' claims) waits.
 * In the timing leg: "promptly" is a bound in seconds, and the stalls are short SMTP timeouts, which a busy
 * machine's slowness would trip for the prompt tenant too.
 */
import { MessageDelivery } from '../../apps/main-service/src/message/delivery/message-delivery.entity';
import { Email } from '../../apps/main-service/src/message/email/email.entity';
import { startApp, TestApp } from '../support/test-app';
import { Claims } from '../support/tokens';
import { SmtpSink, StallingServer, startSmtpSink, startStallingServer, waitFor } from '../support/delivery-sinks';

const M = '/main-service/system-api/message';
const CAP = 2;
const BREAKER_FAILURES = 3;
const DISPATCH = {
  DISPATCH_ENABLED: 'true',
  // the loopback sinks (delivery destinations must be public unless allowed)
  DELIVERY_ALLOWED_HOSTS: '127.0.0.1',
  DISPATCH_POLL_MS: '20',
  // a failed e-mail of the stalling tenant does not come back during these tests
  DISPATCH_RETRY_BASE_MS: '600000',
  DISPATCH_SMTP_TIMEOUT_MS: '500',
  DISPATCH_TENANT_IN_FLIGHT_MAX: String(CAP),
  DISPATCH_BREAKER_FAILURES: String(BREAKER_FAILURES),
  DISPATCH_BREAKER_PAUSE_MS: '600000',
};

describe('fair delivery across tenants', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let stalling: StallingServer;

  const admin = (tenantId: string): Claims => ({ tenantId, sub: 'admin' });

  async function saveConfig(tenantId: string, port: number): Promise<void> {
    const body = {
      emailConfigId: 'relay',
      name: 'relay',
      host: '127.0.0.1',
      port,
      secure: false,
      fromAddress: 'noreply@example.com',
      enabled: true,
    };
    expect(await t.post(`${M}/email-config/save`, body, admin(tenantId))).toMatchObject({ status: 200, data: true });
  }

  /** E-mails written straight to the table, oldest first (as a producer writing rows would). */
  async function insertEmails(tenantId: string, count: number): Promise<void> {
    const now = Date.now();
    const rows = Array.from({ length: count }, (_, i) => ({
      tenantId,
      emailId: `bulk${i}`,
      fromAddress: 'noreply@example.com',
      toAddresses: ['ops@example.com'],
      subject: `Bulk ${i}`,
      content: 'x',
      status: 'PENDING',
      retryCount: 0,
      revision: 1,
      createdUsername: 'producer',
      createdTime: now - count + i,
      lastModifiedUsername: 'producer',
      lastModifiedTime: now,
    }));
    await t.dataSource.getRepository(Email).insert(rows as Partial<Email>[]);
  }

  async function saveEmail(tenantId: string, subject: string): Promise<string> {
    const emailId = `em${Math.random().toString(36).slice(2, 12)}`;
    const body = { emailId, fromAddress: 'noreply@example.com', toAddresses: ['alice@example.com'], subject, content: 'Hello' };
    expect(await t.post(`${M}/email/save`, body, admin(tenantId))).toMatchObject({ status: 200, data: true });
    return emailId;
  }

  const stored = async (tenantId: string, emailId: string) => (await t.get(`${M}/email/getById?id=${emailId}`, admin(tenantId))).data;
  const sent = (tenantId: string, emailId: string) =>
    waitFor(
      () => stored(tenantId, emailId),
      (e) => e.status === 'SENT',
      `e-mail ${emailId} SENT`,
    );
  const emailsOf = (tenantId: string) => t.dataSource.getRepository(Email).findBy({ tenantId });

  beforeAll(async () => {
    sink = await startSmtpSink();
    stalling = await startStallingServer();
    t = await startApp(DISPATCH);
  });
  afterAll(async () => {
    await t?.close();
    await stalling?.close();
    await sink?.close();
  });

  it("another tenant's e-mail is SENT promptly while one tenant's 64 e-mails stall at a server that never greets", async () => {
    await saveConfig('stalled', stalling.port);
    await saveConfig('prompt', sink.port);
    await insertEmails('stalled', 64);
    await waitFor(
      async () => stalling.connections,
      (n) => n > 0,
      'the stalled tenant to be tried',
    );
    const saved = Date.now();
    const emailId = await saveEmail('prompt', 'Not held up');
    await sent('prompt', emailId);
    // the stalling server holds each attempt for the 0.5 s greeting timeout: waiting behind the stalled
    // tenant's e-mails (3 connections for 64 of them) would take far longer
    expect(Date.now() - saved).toBeLessThan(4000);
    expect(sink.received.map((m) => m.subject)).toContain('Not held up');
  });

  it('the stalling configuration is paused after repeated failures; its e-mails stay PENDING, uncharged', async () => {
    // the attempts under way when the breaker opened (at most the cap) still end
    const settled = await waitFor(
      async () => (await emailsOf('stalled')).filter((e) => e.retryCount > 0).length,
      (n) => n >= BREAKER_FAILURES,
      'the failures that open the breaker',
    );
    await new Promise((r) => setTimeout(r, 1200));
    const connections = stalling.connections;
    expect(connections).toBeLessThanOrEqual(BREAKER_FAILURES + CAP - 1);
    expect(settled).toBeLessThanOrEqual(BREAKER_FAILURES + CAP - 1);
    // paused: no further connection over several greeting timeouts
    await new Promise((r) => setTimeout(r, 1200));
    expect(stalling.connections).toBe(connections);
    const emails = await emailsOf('stalled');
    expect(emails.every((e) => e.status === 'PENDING')).toBe(true);
    const charged = emails.filter((e) => e.retryCount > 0);
    expect(charged.length).toBe(connections);
    expect(charged.every((e) => e.retryCount === 1 && e.errorMessage)).toBe(true);
    // and other tenants are still served
    const emailId = await saveEmail('prompt', 'Still served');
    await sent('prompt', emailId);
  });

  it("a tenant whose in-flight cap is taken by another replica's claims waits; it is sent once they end", async () => {
    await saveConfig('capped', sink.port);
    const now = Date.now();
    const foreign = ['held1', 'held2'].map((messageId) => ({
      channel: 'email' as const,
      tenantId: 'capped',
      messageId,
      nextAttemptTime: 0,
      claimedBy: 'another-replica',
      claimedUntil: now + 600_000,
    }));
    await t.dataSource.getRepository(MessageDelivery).insert(foreign);
    const emailId = await saveEmail('capped', 'Capped');
    const other = await saveEmail('prompt', 'Beside the capped one');
    await sent('prompt', other);
    await new Promise((r) => setTimeout(r, 300));
    expect((await stored('capped', emailId)).status).toBe('PENDING');
    // the other replica's claims end (released): the tenant has room again
    await t.dataSource
      .getRepository(MessageDelivery)
      .update({ tenantId: 'capped', claimedBy: 'another-replica' }, { claimedBy: null, claimedUntil: 0 });
    await sent('capped', emailId);
  });
});
