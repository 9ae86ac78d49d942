/**
 * start-tracing.ts in a process of its own, as an entry file's first import: without an exporter it loads no
 * SDK module at all; with one the SDK runs, and the HTTP spans it exports carry no query string (a device's
 * `token`, a filter's value), on the server span nor on the client span. The TypeScript is compiled on the
 * fly with SWC, as Jest compiles it.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const START_TRACING = join(__dirname, 'start-tracing.ts');

/** Makes `require` compile .ts files with SWC (CommonJS), then runs `script`. */
const preamble = `
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
`;

async function run(script: string, env: Record<string, string>): Promise<string> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', preamble + script], {
    cwd: join(__dirname, '../../../..'),
    env: { ...clean, ...env },
    timeout: 60_000,
  });
  return stdout;
}

const loadedTelemetry = `
require(${JSON.stringify(START_TRACING)});
require('node:http');
console.log(JSON.stringify(Object.keys(require.cache).filter((path) => path.includes('@opentelemetry'))));
`;

describe('without an exporter nothing is loaded', () => {
  it.each([
    ['no OTEL variable', {}],
    ['OTEL_TRACES_EXPORTER=none', { OTEL_TRACES_EXPORTER: 'none' }],
    ['OTEL_SDK_DISABLED=true', { OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }],
    ['only the endpoint and sampler set', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_SAMPLER: 'always_on' }],
  ])('%s', async (_, env) => {
    expect(JSON.parse(await run(loadedTelemetry, env))).toEqual([]);
  });

  it('with an exporter, the SDK and the instrumentations are', async () => {
    const loaded: string[] = JSON.parse(await run(loadedTelemetry, { OTEL_TRACES_EXPORTER: 'console' }));
    for (const part of ['sdk-node', 'instrumentation-http', 'instrumentation-mysql2', 'instrumentation-kafkajs'])
      expect(loaded.some((path) => path.includes(`/@opentelemetry/${part}/`))).toBe(true);
  });
});

it('HTTP spans keep the path and drop the query string, on the server and the client side', async () => {
  // a server span for the request, a client span for the call it makes; the console exporter prints both
  const script = `
require(${JSON.stringify(START_TRACING)});
const http = require('node:http');
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/inner')) return res.end('inner');
  http.get('http://127.0.0.1:' + server.address().port + '/inner/path?sig=client-secret', (inner) => {
    inner.resume();
    inner.on('end', () => res.end('outer'));
  });
});
server.listen(0, '127.0.0.1', () => {
  http.get('http://127.0.0.1:' + server.address().port + '/main-service/main-api/device/x?token=server-secret&a=b', (res) => {
    res.resume();
    res.on('end', () => setTimeout(() => server.close(), 100));
  });
});
`;
  // no resource detectors: the process detector would print this script (command line) with the spans
  const printed = await run(script, { OTEL_TRACES_EXPORTER: 'console', OTEL_NODE_RESOURCE_DETECTORS: 'none' });
  // one JSON line per span, as the log lines are
  const spans = printed
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { span: string; traceId: string; attributes: Record<string, unknown> });
  expect(spans.map(({ attributes }) => attributes['url.path'])).toContain('/main-service/main-api/device/x');
  expect(spans.map(({ attributes }) => attributes['url.full'])).toContainEqual(
    expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/inner\/path$/),
  );
  expect(new Set(spans.map(({ traceId }) => traceId)).size).toBe(1);
  expect(printed).not.toMatch(/secret|url\.query|\?/);
});
