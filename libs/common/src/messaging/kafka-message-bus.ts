import { Logger } from '@nestjs/common';
import { Admin, CompressionTypes, Consumer, Kafka, logLevel, LogEntry, Partitioners, Producer } from 'kafkajs';
import { withCarriedTrace } from '../tracing/trace-context';
import { BusHandler, BusMessage, handleInSpan, MessageBus, runsOfOneTrace } from './message-bus';
import { topicReplication } from './topic-replication';

/** Largest message a topic accepts: a whole import batch is one message (request bodies go up to 16 MB). */
export const KAFKA_MAX_MESSAGE_BYTES = 20 * 1024 * 1024;

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /** Consumer groups are `<groupPrefix>.<topic>`: one group per topic (kafkajs assigns a group's partitions without regard to each member's topics). */
  groupPrefix: string;
  /** Prepended to every topic and group name, so environments can share a cluster. */
  topicPrefix: string;
  /** Partitions of a topic created here (an existing topic keeps its own). */
  topicPartitions: number;
  /** Copies of a topic created here; unset: derived from the cluster's brokers (topic-replication.ts). */
  topicReplicationFactor?: number;
}

/** kafkajs warnings that mean nothing to an operator: dropped. */
const MEANINGLESS_WARNINGS = [
  // the producer is idempotent with a short retry count on purpose: the outbox relay retries with its own
  // backoff and keeps the order, so no message is lost or duplicated by the limit
  'Limiting retries for the idempotent producer may invalidate EoS guarantees',
];

/**
 * A protocol line: kafkajs logs a broker's error response to one request (`Response GroupCoordinator(key: 10,
 * version: 2)` while the group coordinator is still loading) at error level, and retries the request itself;
 * what fails for good surfaces as the error of the call.
 */
const isProtocolLine = (message: string) => message.startsWith('Response ') || message.startsWith('Request ');

/**
 * kafkajs's log lines (its public `logCreator` option) to the service's logger (pino, through Nest's Logger):
 * errors and warnings as warnings (connection errors while the broker is down are warnings, not errors), info
 * as debug; protocol lines as debug, the meaningless warnings not at all.
 */
export function kafkaLogCreator(logger: Pick<Logger, 'warn' | 'debug'>) {
  return () =>
    ({ level, log }: LogEntry) => {
      const message = String(log.message);
      if (MEANINGLESS_WARNINGS.includes(message)) return;
      const error = typeof log.error === 'string' && log.error ? `: ${log.error}` : '';
      const text = `${message}${log.broker ? ` (${String(log.broker)})` : ''}${error}`;
      if (isProtocolLine(message)) logger.debug(text);
      else if (level <= logLevel.WARN) logger.warn(text);
      else if (level === logLevel.INFO) logger.debug(text);
    };
}

/**
 * The production transport. The producer is idempotent with acks=all, so `publish` resolves only once
 * every in-sync replica has the messages (at least `min.insync.replicas` of them); topics are created on first
 * use (never auto-created by the broker), three copies on a cluster of three or more brokers; each subscribed
 * topic has its own consumer that commits an offset only after the handler resolved (the batch's transaction
 * committed), so a handler failure means redelivery. With tracing, messages carry their trace in W3C headers.
 */
export class KafkaMessageBus extends MessageBus {
  readonly transport = 'kafka';
  readonly remote = true;
  private readonly logger = new Logger(KafkaMessageBus.name);
  private readonly kafka: Kafka;
  private producer?: Promise<Producer>;
  private admin?: Promise<Admin>;
  private readonly topics = new Map<string, Promise<void>>();
  private readonly consumers: Consumer[] = [];
  private closed = false;

  constructor(private readonly options: KafkaBusOptions) {
    super();
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      connectionTimeout: 3000,
      requestTimeout: 30_000,
      // short: the outbox relay retries with its own backoff, so a dead broker fails a publish fast
      retry: { initialRetryTime: 300, retries: 3 },
      logLevel: logLevel.WARN,
      logCreator: kafkaLogCreator(this.logger),
    });
  }

  /** The full topic name on the cluster. */
  topicName(topic: string): string {
    return `${this.options.topicPrefix}${topic}`;
  }

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    if (this.closed) throw new Error('message bus closed');
    await this.ensureTopic(topic);
    const producer = await this.connectedProducer();
    try {
      // in order, each run in its request's trace: the send span (and the headers it injects) continue it
      for (const run of runsOfOneTrace(messages)) {
        const record = { topic: this.topicName(topic), messages: run.map(({ key, value }) => ({ key, value })) };
        await withCarriedTrace(run[0].traceContext, () => producer.send({ ...record, acks: -1, compression: CompressionTypes.GZIP }));
      }
    } catch (error) {
      // a fresh producer (new producer id) after any failure; the consumer tolerates the possible duplicate
      this.producer = undefined;
      void producer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Starts consuming in the background and resolves at once: the service starts (and takes imports
   * into the outbox) while the broker is down; the consumer keeps trying to join until it can.
   */
  async subscribe(topic: string, handler: BusHandler): Promise<void> {
    void this.consume(topic, handler);
  }

  private async consume(topic: string, handler: BusHandler): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      const consumer = this.kafka.consumer({
        groupId: `${this.options.topicPrefix}${this.options.groupPrefix}.${topic}`,
        // a replica that died gives its partitions up after this long; heartbeats continue during a long batch (below)
        sessionTimeout: 10_000,
        heartbeatInterval: 1_000,
        // one message is one whole batch: let a fetch carry the largest message
        maxBytesPerPartition: KAFKA_MAX_MESSAGE_BYTES + 1024 * 1024,
        maxBytes: 2 * KAFKA_MAX_MESSAGE_BYTES,
        retry: { initialRetryTime: 500, retries: 8 },
      });
      this.consumers.push(consumer); // so close() disconnects it whatever state it is in
      // kafkajs restarts a consumer itself after a retriable failure only; after any other (e.g. no group
      // coordinator yet on a new broker) it stops for good, so this loop starts a new one
      const gaveUp = new Promise<Error>((resolve) =>
        consumer.on(consumer.events.CRASH, ({ payload }) => {
          if (!payload.restart) resolve(payload.error);
        }),
      );
      try {
        await this.ensureTopic(topic);
        await consumer.connect();
        await consumer.subscribe({ topic: this.topicName(topic), fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ message, heartbeat }) => {
            // kafkajs heartbeats only between messages: keep the membership alive while a big batch is applied
            const beat = setInterval(() => void heartbeat().catch(() => undefined), 1_000);
            try {
              // a throw (storage down) makes kafkajs retry, then restart the consumer from the last committed offset
              // in the trace the message's headers continue (the kafkajs instrumentation's process span)
              await handleInSpan(topic, handler, { key: message.key?.toString() ?? '', value: message.value?.toString() ?? '' });
            } finally {
              clearInterval(beat);
            }
          },
        });
        attempt = -1; // joined: the next failure starts the back-off anew
        const error = await gaveUp;
        if (this.closed) return;
        throw error;
      } catch (error) {
        this.consumers.splice(this.consumers.indexOf(consumer), 1);
        await consumer.disconnect().catch(() => undefined);
        const delay = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
        this.logger.warn(
          `consumer of ${this.topicName(topic)} stopped or could not start (${(error as Error).name}); retry in ${delay} ms`,
        );
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // consumers first: disconnect waits for the message in hand, then leaves the group
    await Promise.allSettled(this.consumers.map((c) => c.disconnect()));
    const [producer, admin] = [this.producer, this.admin];
    await Promise.allSettled([producer?.then((p) => p.disconnect()), admin?.then((a) => a.disconnect())]);
  }

  /** One metadata round trip to the cluster over the shared admin client. */
  async ping(): Promise<void> {
    if (this.closed) throw new Error('message bus closed');
    await (await this.connectedAdmin()).describeCluster();
  }

  private connectedProducer(): Promise<Producer> {
    if (!this.producer) {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1, // kafkajs' idempotent mode requires it; it also keeps a key's messages in order
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      this.producer = producer.connect().then(() => producer);
      this.producer.catch(() => (this.producer = undefined));
    }
    return this.producer;
  }

  /** Creates the topic if missing (once per process); a failure is retried on the next call. */
  private ensureTopic(topic: string): Promise<void> {
    let ensured = this.topics.get(topic);
    if (!ensured) {
      ensured = this.createTopic(topic);
      this.topics.set(topic, ensured);
      ensured.catch(() => this.topics.delete(topic));
    }
    return ensured;
  }

  private connectedAdmin(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      this.admin = admin.connect().then(() => admin);
      this.admin.catch(() => (this.admin = undefined));
    }
    return this.admin;
  }

  private async createTopic(topic: string): Promise<void> {
    const admin = await this.connectedAdmin();
    // the brokers answering now: three copies on a cluster, one on a development broker (unless configured)
    const { brokers } = await admin.describeCluster();
    const { replicationFactor, minInSyncReplicas } = topicReplication(brokers.length, this.options.topicReplicationFactor);
    const created = await admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic: this.topicName(topic),
          numPartitions: this.options.topicPartitions,
          replicationFactor,
          configEntries: [
            { name: 'max.message.bytes', value: String(KAFKA_MAX_MESSAGE_BYTES) },
            { name: 'min.insync.replicas', value: String(minInSyncReplicas) },
          ],
        },
      ],
    });
    if (created)
      this.logger.log(
        `created topic ${this.topicName(topic)} (${this.options.topicPartitions} partitions, ${replicationFactor} replicas, min.insync.replicas ${minInSyncReplicas})`,
      );
  }
}
