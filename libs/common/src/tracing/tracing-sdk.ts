import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { MySQL2Instrumentation } from '@opentelemetry/instrumentation-mysql2';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { entrySampler } from './entry-sampler';
import { clientSpanStart, isProbeOrScrape, serverSpanEnd, serverSpanStart } from './http-spans';
import { JsonConsoleSpanExporter } from './json-console-exporter';
import { sqlShape } from './sql-text';
import { markTracingStarted, tracingStarted } from './tracing-switch';

/**
 * Starts the OpenTelemetry SDK for traces only (the services' metrics are Prometheus', their logs pino's):
 * exporter, endpoint, sampler (applied to entry spans: entry-sampler.ts), propagators and resource from the
 * standard OTEL_* variables; `serviceName` when they name none. Instrumented: incoming and outgoing HTTP
 * (http-spans.ts), mysql2 (statements without values: sql-text.ts) and kafkajs (send and process spans,
 * W3C headers). OTEL_TRACES_EXPORTER=console alone prints one JSON line per span (json-console-exporter.ts); in a
 * list with other exporters the SDK's own console exporter prints multi-line objects.
 */
export function startTracingSdk(serviceName: string | undefined): void {
  if (tracingStarted()) return;
  const sdk = new NodeSDK({
    serviceName,
    sampler: entrySampler(process.env),
    ...(consoleOnly(process.env) && { spanProcessors: [new SimpleSpanProcessor({ exporter: new JsonConsoleSpanExporter() })] }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: isProbeOrScrape,
        // background work without a trace (token key refreshes) makes no orphan client spans
        requireParentforOutgoingSpans: true,
        startIncomingSpanHook: serverSpanStart,
        startOutgoingSpanHook: clientSpanStart,
        applyCustomAttributesOnSpan: serverSpanEnd,
      }),
      new MySQL2Instrumentation({ maskStatement: true, maskStatementHook: sqlShape }),
      new KafkaJsInstrumentation(),
    ],
  });
  sdk.start();
  markTracingStarted(() => sdk.shutdown());
}

/** Whether OTEL_TRACES_EXPORTER names the console exporter and no other. */
export const consoleOnly = (env: NodeJS.ProcessEnv): boolean =>
  (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name && name !== 'null')
    .join(',') === 'console';
