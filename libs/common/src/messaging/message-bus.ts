import { Logger } from '@nestjs/common';
import { SpanKind } from '@opentelemetry/api';
import { TENANT_ID } from '../tracing/span-attributes';
import { inSpan, withCarriedTrace } from '../tracing/trace-context';

export interface BusMessage {
  key: string;
  value: string;
  /** The trace it continues (tracing/trace-context.ts), when the request that stored it was traced. */
  traceContext?: string | null;
}

export type BusHandler = (message: BusMessage) => Promise<void>;

/** A handler's run on one message, in a span of its own (`apply <topic>`) naming the message's key: the tenant, on the import topics. */
export function handleInSpan(topic: string, handler: BusHandler, message: BusMessage): Promise<void> {
  const attributes = { 'messaging.destination.name': topic, [TENANT_ID]: message.key };
  return inSpan(`apply ${topic}`, attributes, () => handler(message), SpanKind.CONSUMER);
}

/** Consecutive messages continuing one trace (all of them, without tracing): each run is sent in its trace. */
export function runsOfOneTrace(messages: BusMessage[]): BusMessage[][] {
  const runs: BusMessage[][] = [];
  for (const message of messages) {
    const last = runs[runs.length - 1];
    if (last && (last[0].traceContext ?? null) === (message.traceContext ?? null)) last.push(message);
    else runs.push([message]);
  }
  return runs;
}

/**
 * Transport of asynchronous work. `publish` resolves only once the transport has the messages
 * (the outbox relay marks rows sent after that); a handler that throws asks for redelivery.
 */
export abstract class MessageBus {
  /** Shown in health details: `in-process` or `kafka`. */
  abstract readonly transport: string;
  /** Whether messages travel through a broker of their own (whose state is worth watching). */
  abstract readonly remote: boolean;
  abstract publish(topic: string, messages: BusMessage[]): Promise<void>;
  abstract subscribe(topic: string, handler: BusHandler): Promise<void>;
  abstract close(): Promise<void>;
  /** Resolves when the transport answers (readiness); callers bound it with their own timeout. */
  abstract ping(): Promise<void>;
}

/**
 * The embedded default: delivers in order, in this process, and reports handler failures to the publisher.
 * Each message is handled in the trace of the request that stored it.
 */
export class InProcessMessageBus extends MessageBus {
  readonly transport = 'in-process';
  readonly remote = false;
  private readonly logger = new Logger(InProcessMessageBus.name);
  private readonly handlers = new Map<string, BusHandler[]>();

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    const handlers = this.handlers.get(topic) ?? [];
    if (!handlers.length) this.logger.warn(`no subscriber for ${topic}; ${messages.length} message(s) dropped`);
    for (const message of messages)
      for (const handle of handlers) await withCarriedTrace(message.traceContext, () => handleInSpan(topic, handle, message));
  }

  async subscribe(topic: string, handler: BusHandler): Promise<void> {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }

  async ping(): Promise<void> {
    // in this process: up as long as the process is
  }
}
