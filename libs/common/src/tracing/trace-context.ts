import {
  Attributes,
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { tracingStarted } from './tracing-switch';

/** The tracer of the spans the services make themselves (the instrumentations name their own). */
const TRACER = 'back-office';
/** W3C fields kept with stored work. */
const TRACEPARENT = 'traceparent';
const TRACESTATE = 'tracestate';
/** Longest stored carrier (the column length): a traceparent and a tracestate of the specified 512 characters fit. */
export const TRACE_CARRIER_MAX = 640;

/**
 * The current trace as W3C fields in JSON (`{"traceparent":...,"tracestate":...}`), to store with work that
 * runs later (an outbox row, a message waiting for delivery); null without tracing. A tracestate that would
 * make it longer than TRACE_CARRIER_MAX is left out.
 */
export function currentTraceCarrier(): string | null {
  if (!tracingStarted()) return null;
  const fields: Record<string, string> = {};
  propagation.inject(context.active(), fields);
  const parent = fields[TRACEPARENT];
  if (!parent) return null;
  const withState = fields[TRACESTATE] ? JSON.stringify({ [TRACEPARENT]: parent, [TRACESTATE]: fields[TRACESTATE] }) : undefined;
  return withState && withState.length <= TRACE_CARRIER_MAX ? withState : JSON.stringify({ [TRACEPARENT]: parent });
}

function parsedCarrier(carrier: string): Record<string, string> | undefined {
  try {
    const fields: unknown = JSON.parse(carrier);
    if (!fields || typeof fields !== 'object') return undefined;
    const { [TRACEPARENT]: parent, [TRACESTATE]: state } = fields as Record<string, unknown>;
    if (typeof parent !== 'string') return undefined;
    return typeof state === 'string' ? { [TRACEPARENT]: parent, [TRACESTATE]: state } : { [TRACEPARENT]: parent };
  } catch {
    return undefined;
  }
}

/**
 * Runs `work` in the trace a stored carrier names (its spans become children of the request that stored it),
 * or in a trace of its own when there is none. Without tracing, just runs it.
 */
export function withCarriedTrace<T>(carrier: string | null | undefined, work: () => T): T {
  if (!tracingStarted()) return work();
  const fields = carrier ? parsedCarrier(carrier) : undefined;
  return context.with(fields ? propagation.extract(ROOT_CONTEXT, fields) : ROOT_CONTEXT, work);
}

/**
 * Runs background work (a relay or dispatcher pass) outside the trace of whatever kicked it: a pass started by
 * a request's kick does not hang its polls under that request. Without tracing, just runs it.
 */
export function outsideAnyTrace<T>(work: () => T): T {
  return tracingStarted() ? context.with(ROOT_CONTEXT, work) : work();
}

/**
 * Runs `work` in a span of its own, child of the current one: ended when `work` settles, marked as an error
 * when it throws (the error's class only: its message may carry data). Without tracing, just runs it.
 */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!tracingStarted()) return work(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  return trace.getTracer(TRACER).startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error | null)?.name ?? typeof error });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The trace and span ids of the current request or background work; undefined without tracing or outside a span. */
export function activeSpanIds(): { traceId: string; spanId: string } | undefined {
  if (!tracingStarted()) return undefined;
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext) ? { traceId: spanContext.traceId, spanId: spanContext.spanId } : undefined;
}

/** The trace id of the current request or background work, for log lines and error envelopes; undefined without one. */
export function activeTraceId(): string | undefined {
  return activeSpanIds()?.traceId;
}

/** `fields` with the active trace id added (`traceId`) when there is one; `fields` itself without tracing. */
export function withTraceId<T extends object>(fields: T): T | (T & { traceId: string }) {
  const traceId = activeTraceId();
  return traceId ? { ...fields, traceId } : fields;
}
