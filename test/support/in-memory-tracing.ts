/**
 * Tracing inside a test process: the spans the code makes, kept in memory, with the W3C propagator the
 * services use. Registered with @opentelemetry/api as the SDK registers them; `stop` undoes it all.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { markTracingStarted, stopTracing } from '../../libs/common/src/tracing/tracing-switch';

export interface InMemoryTracing {
  /** The spans ended so far. */
  spans(): ReadableSpan[];
  stop(): Promise<void>;
}

export function startInMemoryTracing(): InMemoryTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  markTracingStarted(async () => {
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });
  return { spans: () => exporter.getFinishedSpans(), stop: stopTracing };
}
