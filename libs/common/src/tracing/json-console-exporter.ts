import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/** ExportResultCode.SUCCESS of @opentelemetry/core (a development dependency only). */
const SUCCESS = 0;

const microseconds = ([seconds, nanoseconds]: [number, number]) => Math.round(seconds * 1e6 + nanoseconds / 1e3);

/**
 * The `console` trace exporter: one JSON line per span on standard output, the fields of OpenTelemetry's
 * ConsoleSpanExporter (which prints each span as a multi-line JavaScript object, out of step with the JSON log
 * lines around it). Used when OTEL_TRACES_EXPORTER is `console` alone (tracing-sdk.ts).
 */
export class JsonConsoleSpanExporter implements SpanExporter {
  constructor(private readonly write: (line: string) => void = (line) => process.stdout.write(line)) {}

  export(spans: ReadableSpan[], done: (result: { code: number }) => void): void {
    for (const span of spans) this.write(`${JSON.stringify(spanLine(span))}\n`);
    done({ code: SUCCESS });
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** What the line of one span holds; times in microseconds since the epoch, as ConsoleSpanExporter gives them. */
export function spanLine(span: ReadableSpan) {
  const context = span.spanContext();
  return {
    span: span.name,
    traceId: context.traceId,
    id: context.spanId,
    parentId: span.parentSpanContext?.spanId,
    kind: span.kind,
    timestamp: microseconds(span.startTime),
    duration: microseconds(span.duration),
    attributes: span.attributes,
    status: span.status,
    events: span.events.length ? span.events : undefined,
    links: span.links.length ? span.links : undefined,
    service: span.resource.attributes['service.name'],
    scope: span.instrumentationScope.name,
  };
}
