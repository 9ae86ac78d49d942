import { DynamicModule, Global, Module } from '@nestjs/common';
import type { ServiceManifest } from '../app/service-manifest';
import { MessagingConfig } from '../config/messaging.config';
import { BrokerMonitor } from './broker-monitor';
import { ImportBatch } from './import-batch.entity';
import { ImportRejection } from './import-rejection.entity';
import { InProcessMessageBus, MessageBus } from './message-bus';
import { MessagingStatus } from './messaging-status';
import { OutboxLease } from './outbox-lease.entity';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxRelay } from './outbox.relay';

/** The tables of the outbox and of import batches: a service importing MessagingModule lists them in its manifest. */
export const MESSAGING_ENTITIES = [OutboxMessage, OutboxLease, ImportBatch, ImportRejection];

/**
 * KAFKA_BROKERS selects Kafka (the production transport); unset, the embedded in-process bus. The Kafka
 * client is loaded only then: a process without a broker starts faster without it.
 */
async function messageBus(config: MessagingConfig, service: string): Promise<MessageBus> {
  if (!config.kafkaBrokers) return new InProcessMessageBus();
  const { KafkaMessageBus } = await import('./kafka-message-bus.js');
  return new KafkaMessageBus({
    brokers: config.kafkaBrokers,
    clientId: service,
    groupPrefix: service,
    topicPrefix: config.kafkaTopicPrefix,
    topicPartitions: config.kafkaTopicPartitions,
    topicReplicationFactor: config.kafkaTopicReplicationFactor,
  });
}

/** What the manifest must list for this module: its tables (schema, migrations CLI) and its configuration namespace. */
function missingParts(manifest: ServiceManifest): string[] {
  return [
    ...MESSAGING_ENTITIES.filter((entity) => !manifest.entities.includes(entity)).map((entity) => entity.name),
    ...(manifest.config.includes(MessagingConfig) ? [] : [MessagingConfig.name]),
  ];
}

/**
 * Asynchronous work for a service that has it (async importList): the message bus, the transactional
 * outbox and its relay, the broker's state in readiness details and metrics. Only a service that imports
 * it reads KAFKA_* and connects to a broker; its manifest lists MESSAGING_ENTITIES and MessagingConfig.
 */
@Global()
@Module({})
export class MessagingModule {
  static forService(manifest: ServiceManifest): DynamicModule {
    const missing = missingParts(manifest);
    if (missing.length) throw new Error(`${manifest.name} imports MessagingModule but its manifest lacks ${missing.join(', ')}`);
    return {
      module: MessagingModule,
      providers: [
        { provide: MessageBus, useFactory: (config: MessagingConfig) => messageBus(config, manifest.name), inject: [MessagingConfig] },
        OutboxRelay,
        BrokerMonitor,
        MessagingStatus,
      ],
      exports: [MessageBus, OutboxRelay, BrokerMonitor],
    };
  }
}
