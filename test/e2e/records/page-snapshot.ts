/**
 * A page is read from one snapshot: its total and its rows agree although the tenant's rows change meanwhile,
 * also when another replica writes (MariaDB: two apps on one database; SQLite: writes through the same app,
 * whose statements share its one connection). And a write the service did not make itself, the dispatcher's
 * status change, shows at once in a filtered page total on another replica that keeps its counts for an hour.
 */
import { MessageDelivery } from '../../../apps/main-service/src/message/delivery/message-delivery.entity';
import { createSharedDatabase, TestDatabase, usingMysql } from '../../support/database';
import { startSmtpSink, SmtpSink, waitFor } from '../../support/delivery-sinks';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';
import type { Json } from '../../support/json';

const P = `${CONFIG}/data-dictionary`;
const M = '/main-service/system-api/message';
/** Far beyond the test's run time: only the write versions can make a replica count again. */
const LONG_TTL = { PAGE_TOTAL_TTL_MS: '3600000', LIST_CACHE_TTL_SECONDS: '3600' };
const PAGES = 60;

let n = 0;
const seed = () => `ps${++n}x${Date.now().toString(36)}`;
const ok = (res: Envelope): Envelope => {
  expect({ status: res.status, error: res.error }).toEqual({ status: 200, error: null });
  return res;
};

describe('a page while the tenant writes', () => {
  let database: TestDatabase;
  let reader: TestApp;
  let writer: TestApp;

  beforeAll(async () => {
    database = await createSharedDatabase();
    reader = await startApp(LONG_TTL, { shared: database });
    // two replicas where they are real; on SQLite one app (two would wait on each other's file lock)
    writer = usingMysql() ? await startApp(LONG_TTL, { shared: database }) : reader;
  });
  afterAll(async () => {
    if (writer !== reader) await writer?.close();
    await reader?.close();
    await database?.drop();
  });

  it.each([
    ['unfiltered', {}],
    ['filtered', { dataDictionaryTypeCode: 'shared' }],
  ])(
    '%s: a page read from the end holds the rows of the total it shows',
    async (_, filter: Json) => {
      const claims: Claims = { tenantId: `snap-${seed()}`, sub: 'alice' };
      const row = (code: string, sort: number) => ({ dataDictionaryTypeCode: 'shared', dataDictionaryCode: code, name: code, sort });
      for (let sort = 1; sort <= 40; sort++) ok(await writer.post(`${P}/save`, row(`s${sort}`, sort), claims));
      const expected = Array.from({ length: 10 }, (_, i) => `s${21 + i}`);

      let writing = true;
      const writes = (async () => {
        // a 41st row, after all others in the order, comes and goes
        for (let i = 0; writing; i++) {
          ok(await writer.post(`${P}/save`, row(`extra${i}`, 1000 + i), claims));
          const [extra] = ok(await writer.post(`${P}/list`, { dataDictionaryCode: `extra${i}` }, claims)).data as Json[];
          ok(await writer.del(`${P}/removeById?id=${extra.dataDictionaryId}`, claims));
        }
      })();
      const answers: { total: number; codes: string[] }[] = [];
      try {
        for (let i = 0; i < PAGES; i++) {
          const res = ok(await reader.post(`${P}/page`, { ...filter, current: 3, pageSize: 10 }, claims));
          answers.push({ total: res.extraData.total as number, codes: (res.data as Json[]).map((r) => r.dataDictionaryCode) });
        }
      } finally {
        writing = false;
        await writes;
      }
      for (const answer of answers) {
        expect([40, 41]).toContain(answer.total);
        expect(answer.codes).toEqual(expected);
      }
    },
    120_000,
  );
});

(usingMysql() ? describe : describe.skip)("the dispatcher's status change on another replica", () => {
  let database: TestDatabase;
  let sink: SmtpSink;
  let dispatcher: TestApp;
  let reader: TestApp;
  const claims: Claims = { tenantId: 'snap-dispatch', sub: 'admin' };

  beforeAll(async () => {
    database = await createSharedDatabase();
    sink = await startSmtpSink();
    const allowed = { DELIVERY_ALLOWED_HOSTS: '127.0.0.1' };
    reader = await startApp({ ...allowed, ...LONG_TTL, DISPATCH_ENABLED: 'false' }, { shared: database });
    dispatcher = await startApp({ ...allowed, DISPATCH_ENABLED: 'true', DISPATCH_POLL_MS: '20' }, { shared: database });
    const config = { name: 'relay', host: '127.0.0.1', port: sink.port, secure: false, fromAddress: 'noreply@example.com', enabled: true };
    ok(await reader.post(`${M}/email-config/save`, config, claims));
  });
  afterAll(async () => {
    await dispatcher?.close();
    await reader?.close();
    await sink?.close();
    await database?.drop();
  });

  const totalWith = async (status: string) =>
    ok(await reader.post(`${M}/email/page`, { status, current: 1, pageSize: 1 }, claims)).extraData.total as number;

  it('a filtered page total counted before the message was sent is not reused after', async () => {
    // the server holds each message a while: the reader counts while both are on their way
    sink.dataDelayMs = 500;
    const email = (subject: string) => ({ fromAddress: 'noreply@example.com', toAddresses: ['a@example.com'], subject, content: 'c' });
    for (const subject of ['snap-0', 'snap-1']) ok(await reader.post(`${M}/email/save`, email(subject), claims));
    // counted and kept by the reader (pageSize 1: the rows never show the total)
    expect(await totalWith('SENT')).toBe(0);
    await waitFor(
      async () => (await dispatcher.dataSource.getRepository(MessageDelivery).count()) === 0 && sink.received.length,
      (sent) => sent === 2,
      'both sent',
    );
    // marked SENT by the other replica's dispatcher: the reader's next totals count again
    expect(await totalWith('SENT')).toBe(2);
    expect(await totalWith('PENDING')).toBe(0);
  });
});
