import { EventEmitter } from 'node:events';
import { ArgumentsHost, Logger } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import type { Request, Response } from 'express';
import { startInMemoryTracing } from '../../../../test/support/in-memory-tracing';
import { ServerConfig } from '../config/server.config';
import { EnvelopeExceptionFilter } from '../http/exception.filter';
import { AppLogging } from '../logging/app-logging';

/** The response of one failed request as the filter sees it: what it was sent. */
function failedRequest() {
  const sent: { status?: number; body?: { extraData?: Record<string, unknown> } } = {};
  const response = {
    headersSent: false,
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: never) {
      sent.body = body;
      return this;
    },
  };
  const request = { originalUrl: '/svc/x?a=1', method: 'POST', headers: {} };
  const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }) } as unknown as ArgumentsHost;
  return { host, sent };
}

const inSpan = <T>(work: (traceId: string) => Promise<T>): Promise<T> =>
  trace.getTracer('test').startActiveSpan('request', async (span) => {
    try {
      return await work(span.spanContext().traceId);
    } finally {
      span.end();
    }
  });

describe('the trace id of a traced request', () => {
  // the fault's own line goes to Nest's logger (pino in a service); its content is tested in fault-fields.spec.ts
  beforeEach(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('without tracing: a 500 carries its errorId only', async () => {
    const { host, sent } = failedRequest();
    await new EnvelopeExceptionFilter().catch(new Error('boom'), host);
    expect(sent.status).toBe(500);
    expect(Object.keys(sent.body!.extraData!)).toEqual(['errorId']);
  });

  describe('with tracing', () => {
    let tracing: ReturnType<typeof startInMemoryTracing>;
    beforeEach(() => (tracing = startInMemoryTracing()));
    afterEach(() => tracing.stop());

    it("a 500's envelope carries the trace id beside its errorId", async () => {
      const { host, sent } = failedRequest();
      const traceId = await inSpan(async (id) => {
        await new EnvelopeExceptionFilter().catch(new Error('boom'), host);
        return id;
      });
      expect(sent.body!.extraData).toEqual({ errorId: expect.any(String), traceId });
    });

    it('every line logged inside the request names its trace', async () => {
      const lines: string[] = [];
      const logging = new AppLogging(Object.assign(new ServerConfig(), { port: 1, logLevel: 'info' }), { name: 'svc' });
      logging.captureTo({ write: (line: string) => lines.push(line) });
      const traceId = await inSpan(async (id) => {
        logging.logger.info('inside');
        return id;
      });
      logging.logger.info('outside');
      expect(JSON.parse(lines[0])).toMatchObject({ msg: 'inside', traceId });
      expect(JSON.parse(lines[1]).traceId).toBeUndefined();
    });

    it('the request line names the trace and span of its request, though written after the span ended', async () => {
      const lines: string[] = [];
      const logging = new AppLogging(Object.assign(new ServerConfig(), { port: 1, logLevel: 'info' }), { name: 'svc' });
      logging.captureTo({ write: (line: string) => lines.push(line) });
      const served = () => {
        const req = Object.assign(new EventEmitter(), { method: 'GET', url: '/svc/x', headers: {}, socket: {} });
        const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true, setHeader: () => undefined });
        logging.http(req as unknown as Request, res as unknown as Response, () => undefined);
        return res;
      };
      let spanId = '';
      const [traced, traceId] = await trace.getTracer('test').startActiveSpan('request', async (span) => {
        spanId = span.spanContext().spanId;
        span.end();
        return [served(), span.spanContext().traceId] as const;
      });
      traced.emit('close');
      served().emit('close');
      expect(JSON.parse(lines[0])).toMatchObject({ msg: 'request completed', traceId, spanId });
      expect(JSON.parse(lines[1])).not.toHaveProperty('traceId');
      expect(JSON.parse(lines[1])).not.toHaveProperty('spanId');
    });
  });
});
