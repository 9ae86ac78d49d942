/**
 * Traces through the gateway, main-service's replicas, MariaDB and Kafka, as a real Zipkin receives them
 * (scripts/zipkin.sh; the cluster started with ZIPKIN_URL). A caller's `traceparent` is kept by the gateway
 * and continued by the service: one import's trace holds its server span (child of the caller's span, with
 * the tenant and the operation id), its SQL statements, the Kafka send and process spans and the batch's
 * apply; an e-mail's save and its delivery attempt to an SMTP sink share one trace. No span holds the query
 * string, the token, the e-mail's addresses or subject. Skipped when the cluster sends no traces.
 */
import { randomBytes } from 'node:crypto';
import { startSmtpSink, SmtpSink } from '../support/delivery-sinks';
import { call, cluster, Cluster, describeCluster, token, unique } from './cluster-support';

const CONFIG = '/main-service/system-api/configuration/data-dictionary';
const MESSAGE = '/main-service/system-api/message';
const IMPORT_TOPIC = 'configuration.data-dictionary.import';

/** A span as Zipkin's API v2 answers it (names lower case, INTERNAL spans without kind). */
interface ZipkinSpan {
  id: string;
  parentId?: string;
  kind?: 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
  name: string;
  localEndpoint?: { serviceName?: string };
  tags?: Record<string, string>;
}

/** A caller's own trace: its W3C header and the ids in it. */
function callerTrace(): { traceId: string; spanId: string; traceparent: string } {
  const [traceId, spanId] = [randomBytes(16).toString('hex'), randomBytes(8).toString('hex')];
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

async function poll<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 500))) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
  }
}

/** The trace's spans in Zipkin once `complete` holds for them (spans arrive from each replica in batches). */
async function trace(zipkin: string, traceId: string, complete: (spans: ZipkinSpan[]) => boolean): Promise<ZipkinSpan[]> {
  let last: ZipkinSpan[] = [];
  try {
    return await poll(`trace ${traceId} complete in Zipkin`, async () => {
      const res = await fetch(`${zipkin}/api/v2/trace/${traceId}`);
      last = res.ok ? ((await res.json()) as ZipkinSpan[]) : [];
      return complete(last) ? last : undefined;
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; spans so far: ${JSON.stringify(last.map((s) => [s.kind, s.name, s.id, s.parentId]))}`);
  }
}

const find = (spans: ZipkinSpan[], test: (span: ZipkinSpan) => boolean) => spans.find(test);
const isSql = (span: ZipkinSpan) => span.kind === 'CLIENT' && span.tags?.['db.system.name'] === 'mysql';

/** Every tag value of every span, to check what none of them may hold. */
const allTagValues = (spans: ZipkinSpan[]) => spans.flatMap((span) => Object.values(span.tags ?? {})).join('\n');

describeCluster('traces across the gateway, the replicas, MariaDB and Kafka (Zipkin)', () => {
  let c: Cluster;
  beforeAll(() => {
    c = cluster();
  });
  // the cluster's state exists only while one runs (CLUSTER_URL); without Zipkin or Kafka there is nothing to look at
  const traced = () => !!process.env.CLUSTER_URL && !!cluster().zipkin && cluster().kafka;
  const withZipkin = (name: string, test: () => Promise<void>, timeout: number) => (traced() ? it : it.skip)(name, test, timeout);

  withZipkin(
    "an import's trace continues the caller's: server span, SQL, Kafka send and process, apply",
    async () => {
      const tenant = unique('trace');
      const caller = callerTrace();
      const rows = [{ dataDictionaryTypeCode: unique('tt'), dataDictionaryCode: 'c1', name: 'n1' }];
      const sent = await call(`${c.gateway}${CONFIG}/importList?probe=query-value-not-kept`, {
        token: token(c.jwtSecret, tenant),
        body: rows,
        headers: { traceparent: caller.traceparent },
      });
      expect(sent).toMatchObject({ http: 200, status: 200, data: true });
      const batchId = String(sent.extraData?.batchId);
      await poll(`batch ${batchId} applied`, async () => {
        const status = await call(`${c.gateway}${CONFIG}/importStatus?batchId=${batchId}`, { token: token(c.jwtSecret, tenant) });
        return (status.data as { status?: string } | null)?.status === 'APPLIED' ? true : undefined;
      });

      const apply = `apply ${IMPORT_TOPIC}`;
      const spans = await trace(c.zipkin!, caller.traceId, (all) =>
        [`send ${IMPORT_TOPIC}`, `process ${IMPORT_TOPIC}`, apply].every((name) => all.some((s) => s.name === name)),
      );
      const server = find(spans, (s) => s.kind === 'SERVER' && s.parentId === caller.spanId);
      expect(server).toMatchObject({
        name: `post ${CONFIG}/importlist`,
        localEndpoint: { serviceName: 'main-service' },
        tags: expect.objectContaining({
          'http.route': `${CONFIG}/importList`,
          'openapi.operation_id': 'dataDictionaryImportList',
          'tenant.id': tenant,
          'url.path': `${CONFIG}/importList`,
        }),
      });
      // the request's statements (the batch and its outbox row) are its children
      expect(spans.filter((s) => isSql(s) && s.parentId === server!.id).map((s) => s.name)).toEqual(expect.arrayContaining(['insert']));
      const send = find(spans, (s) => s.kind === 'PRODUCER' && s.name === `send ${IMPORT_TOPIC}`);
      expect(send?.parentId).toBe(server!.id);
      const processed = find(spans, (s) => s.kind === 'CONSUMER' && s.name === `process ${IMPORT_TOPIC}`);
      expect(processed?.parentId).toBe(send!.id);
      const applied = find(spans, (s) => s.name === apply);
      expect(applied).toMatchObject({ parentId: processed!.id, tags: expect.objectContaining({ 'tenant.id': tenant }) });
      // the batch's rows are written in the apply's trace
      expect(spans.some((s) => isSql(s) && s.parentId === applied!.id)).toBe(true);
      expect(allTagValues(spans)).not.toMatch(/query-value-not-kept|probe=|Bearer|eyJ/);
    },
    120_000,
  );

  describe('delivery', () => {
    let sink: SmtpSink;
    beforeAll(async () => {
      sink = await startSmtpSink({ credentials: { username: 'mailer', password: 'cluster-sink-password' } });
    });
    afterAll(() => sink?.close());

    withZipkin(
      "an e-mail's delivery attempt joins the trace of the request that saved it",
      async () => {
        const tenant = unique('mail');
        const auth = token(c.jwtSecret, tenant);
        const emailConfigId = unique('cfg')
          .replace(/[^0-9A-Za-z]/g, '')
          .slice(0, 32);
        const config = await call(`${c.gateway}${MESSAGE}/email-config/save`, {
          token: auth,
          body: {
            emailConfigId,
            name: 'sink',
            host: '127.0.0.1',
            port: sink.port,
            secure: false,
            username: 'mailer',
            password: 'cluster-sink-password',
            fromAddress: 'noreply@example.com',
            enabled: true,
            allowCleartextLogin: true,
          },
        });
        expect(config).toMatchObject({ http: 200, status: 200, data: true });

        const caller = callerTrace();
        const subject = `Trace subject ${unique('s')}`;
        const saved = await call(`${c.gateway}${MESSAGE}/email/save`, {
          token: auth,
          headers: { traceparent: caller.traceparent },
          body: {
            emailConfigId,
            fromAddress: 'noreply@example.com',
            toAddresses: ['traced.recipient@example.com'],
            subject,
            content: '<p>traced</p>',
          },
        });
        expect(saved).toMatchObject({ http: 200, status: 200, data: true });
        await poll('the e-mail at the sink', async () => (sink.received.some((m) => m.subject === subject) ? true : undefined));

        const spans = await trace(c.zipkin!, caller.traceId, (all) =>
          all.some((s) => s.name === 'delivery.attempt' && s.tags?.['delivery.outcome'] !== undefined),
        );
        const server = find(spans, (s) => s.kind === 'SERVER' && s.parentId === caller.spanId);
        expect(server?.tags).toMatchObject({ 'openapi.operation_id': 'emailSave', 'tenant.id': tenant });
        const attempt = find(spans, (s) => s.name === 'delivery.attempt');
        expect(attempt).toMatchObject({
          kind: 'CONSUMER',
          parentId: server!.id,
          tags: expect.objectContaining({
            'delivery.channel': 'email',
            'delivery.attempt': '1',
            'delivery.outcome': 'sent',
            'tenant.id': tenant,
          }),
        });
        expect(allTagValues(spans)).not.toMatch(/traced\.recipient|Trace subject|cluster-sink-password|noreply@/);
      },
      120_000,
    );
  });
});
