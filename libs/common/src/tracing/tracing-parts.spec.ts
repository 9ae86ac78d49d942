/** The tracing module's rules, one by one: when it turns on, names, statement text, URLs, sampling, operation ids. */
import { ROOT_CONTEXT, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace';
import type { IncomingMessage } from 'node:http';
import { runsOfOneTrace } from '../messaging/message-bus';
import { entrySampler } from './entry-sampler';
import { clientSpanStart, isProbeOrScrape } from './http-spans';
import { noteOperationIds, operationIdOf } from './operation-ids';
import { defaultServiceName } from './service-name';
import { sqlShape } from './sql-text';
import { markTracingStarted, stopTracing, tracesRequested } from './tracing-switch';

describe('tracesRequested: only an exporter named in OTEL_TRACES_EXPORTER turns tracing on', () => {
  it.each([
    [{}, false],
    [{ OTEL_TRACES_EXPORTER: '' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp,none' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'TRUE' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: ' Zipkin ' }, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'false' }, true],
  ])('%j: %s', (env, on) => expect(tracesRequested(env)).toBe(on));
});

describe('defaultServiceName', () => {
  it('is the service of the entry file, back-office for the combined server', () => {
    expect(defaultServiceName({}, '/app/dist/apps/main-service/src/main.js')).toBe('main-service');
    expect(defaultServiceName({}, '/app/dist/apps/device-service/src/main.js')).toBe('device-service');
    expect(defaultServiceName({}, '/app/dist/apps/local/src/local.js')).toBe('back-office');
    expect(defaultServiceName({}, '/elsewhere/script.js')).toBeUndefined();
  });

  it('gives way to OTEL_SERVICE_NAME and to service.name in OTEL_RESOURCE_ATTRIBUTES', () => {
    const entry = '/app/dist/apps/main-service/src/main.js';
    expect(defaultServiceName({ OTEL_SERVICE_NAME: 'api' }, entry)).toBeUndefined();
    expect(defaultServiceName({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=api' }, entry)).toBeUndefined();
    expect(defaultServiceName({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod' }, entry)).toBe('main-service');
  });
});

describe('sqlShape: statement text without values, bounded', () => {
  it('replaces literals and shortens placeholder runs', () => {
    expect(sqlShape("SELECT * FROM `t` WHERE `a` = 'x''y' AND `b` = 42 AND `c` IN (?, ?, ?, ?)")).toBe(
      'SELECT * FROM `t` WHERE `a` = ? AND `b` = ? AND `c` IN (?, ...)',
    );
    expect(sqlShape('INSERT INTO `t2` (`a`, `b`) VALUES (?, ?), (?, ?), (?, ?)')).toBe('INSERT INTO `t2` (`a`, `b`) VALUES (?, ?), ...');
  });

  it('keeps at most 1000 characters', () => {
    const long = `SELECT ${Array.from({ length: 400 }, (_, i) => `\`column_${i}\``).join(', ')} FROM \`t\``;
    expect(sqlShape(long)).toHaveLength(1003);
  });
});

describe('clientSpanStart: url.full without query, fragment or credentials', () => {
  it.each([
    [{ protocol: 'https:', hostname: 'sms.example.com', port: 443, path: '/send?sig=abc&ts=1' }, 'https://sms.example.com/send'],
    [{ protocol: 'http:', host: 'jwks.local:8080', port: 8080, path: '/keys#x' }, 'http://jwks.local:8080/keys'],
    [{ hostname: '::1', port: 9000, path: '/?token=t', auth: 'user:pass' }, 'http://[::1]:9000/'],
  ])('%j', (options, url) => expect(clientSpanStart(options)).toEqual({ 'url.full': url }));
});

it('isProbeOrScrape: the health probes and the metrics scrape, not the API', () => {
  const request = (url: string) => ({ url }) as IncomingMessage;
  expect(isProbeOrScrape(request('/main-service/health/ready'))).toBe(true);
  expect(isProbeOrScrape(request('/device-service/health/live?x=1'))).toBe(true);
  expect(isProbeOrScrape(request('/main-service/METRICS/'))).toBe(true);
  expect(isProbeOrScrape(request('/main-service/system-api/configuration/health-check/list'))).toBe(false);
  expect(isProbeOrScrape(request('/main-service/system-api/metrics-view/list'))).toBe(false);
});

describe('entrySampler: background work starts no trace', () => {
  const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: TraceFlags.SAMPLED });
  const decide = (env: NodeJS.ProcessEnv, context: typeof ROOT_CONTEXT, kind: SpanKind) =>
    entrySampler(env).shouldSample(context, '3'.repeat(32), 'span', kind, {}, []).decision;

  it('a root span is sampled only for a request served or a message sent or processed', () => {
    for (const kind of [SpanKind.SERVER, SpanKind.CONSUMER, SpanKind.PRODUCER])
      expect(decide({}, ROOT_CONTEXT, kind)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    for (const kind of [SpanKind.CLIENT, SpanKind.INTERNAL]) expect(decide({}, ROOT_CONTEXT, kind)).toBe(SamplingDecision.NOT_RECORD);
  });

  it('a child follows its parent, and OTEL_TRACES_SAMPLER decides for roots', () => {
    expect(decide({}, parent, SpanKind.CLIENT)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' }, ROOT_CONTEXT, SpanKind.SERVER)).toBe(
      SamplingDecision.NOT_RECORD,
    );
    expect(decide({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' }, parent, SpanKind.CLIENT)).toBe(
      SamplingDecision.RECORD_AND_SAMPLED,
    );
  });
});

it('runsOfOneTrace: consecutive messages of one trace go together, in order', () => {
  const m = (value: string, traceContext?: string | null) => ({ key: 'k', value, traceContext });
  const runs = runsOfOneTrace([m('1', 'a'), m('2', 'a'), m('3'), m('4', null), m('5', 'a')]);
  expect(runs.map((run) => run.map((message) => message.value))).toEqual([['1', '2'], ['3', '4'], ['5']]);
});

describe('operation ids', () => {
  const document = {
    paths: {
      '/main-service/system-api/configuration/data-dictionary-table/importList': { post: { operationId: 'dataDictionaryTableImportList' } },
      '/main-service/system-api/message/notification-user/{id}/read': { put: { operationId: 'notificationUserRead' } },
    },
  };

  it('are kept only while tracing runs, by method and route as Express declares it', async () => {
    noteOperationIds(document);
    expect(operationIdOf('POST', '/main-service/system-api/configuration/data-dictionary-table/importList')).toBeUndefined();
    markTracingStarted(async () => undefined);
    try {
      noteOperationIds(document);
      expect(operationIdOf('post', '/main-service/system-api/configuration/data-dictionary-table/importList')).toBe(
        'dataDictionaryTableImportList',
      );
      expect(operationIdOf('PUT', '/main-service/system-api/message/notification-user/:id/read')).toBe('notificationUserRead');
      expect(operationIdOf('GET', '/main-service/system-api/message/notification-user/:id/read')).toBeUndefined();
    } finally {
      await stopTracing();
    }
  });
});
