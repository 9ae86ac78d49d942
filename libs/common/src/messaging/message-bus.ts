import { Logger } from '@nestjs/common';

export interface BusMessage {
  key: string;
  value: string;
}

export type BusHandler = (message: BusMessage) => Promise<void>;

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

/** The embedded default: delivers in order, in this process, and reports handler failures to the publisher. */
export class InProcessMessageBus extends MessageBus {
  readonly transport = 'in-process';
  readonly remote = false;
  private readonly logger = new Logger(InProcessMessageBus.name);
  private readonly handlers = new Map<string, BusHandler[]>();

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    const handlers = this.handlers.get(topic) ?? [];
    if (!handlers.length) this.logger.warn(`no subscriber for ${topic}; ${messages.length} message(s) dropped`);
    for (const message of messages) for (const handle of handlers) await handle(message);
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
