import { Attributes, Context, Link, SpanKind, trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  Sampler,
  SamplingDecision,
  SamplingResult,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace';

/** Kinds that may start a trace: a request served, a message sent or processed (a delivery attempt is one). */
const ENTRY_KINDS = new Set([SpanKind.SERVER, SpanKind.PRODUCER, SpanKind.CONSUMER]);

/**
 * The sampler OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG name (the specification's values; default, and
 * for an unknown name, `parentbased_always_on`), whose decision applies to entry spans only: background work
 * (the outbox relay's and the dispatcher's polls, lease renewals) starts no trace with its SQL statements.
 */
export function entrySampler(env: NodeJS.ProcessEnv): Sampler {
  const configured = configuredSampler(env);
  return {
    shouldSample(context: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
      const parent = trace.getSpanContext(context);
      if ((!parent || !trace.isSpanContextValid(parent)) && !ENTRY_KINDS.has(kind)) return { decision: SamplingDecision.NOT_RECORD };
      return configured.shouldSample(context, traceId, name, kind, attributes, links);
    },
    toString: () => `EntrySampler{${configured.toString()}}`,
  };
}

function ratio(env: NodeJS.ProcessEnv): number {
  const value = Number(env.OTEL_TRACES_SAMPLER_ARG);
  return env.OTEL_TRACES_SAMPLER_ARG?.trim() && value >= 0 && value <= 1 ? value : 1;
}

function configuredSampler(env: NodeJS.ProcessEnv): Sampler {
  switch (env.OTEL_TRACES_SAMPLER?.trim()) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio(env));
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio(env)) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
