import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TerminusModule } from '@nestjs/terminus';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LoggerModule } from 'nestjs-pino';
import { AccessGuard } from './auth/access.guard';
import { JwtStrategy } from './auth/jwt.strategy';
import type { ServiceManifest } from './app/service-manifest';
import { DatabaseConfig } from './config/database.config';
import { MessagingConfig } from './config/messaging.config';
import { ServerConfig } from './config/server.config';
import { ServiceConfigModule } from './config/service-config.module';
import { ListVersion } from './crud/list-version.entity';
import { TtlCache } from './crud/ttl-cache';
import { DrainState } from './health/drain-state';
import { HealthController } from './health/health.controller';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { EnvelopeExceptionFilter } from './http/exception.filter';
import { AppLogging } from './logging/app-logging';
import { ImportBatch } from './messaging/import-batch.entity';
import { ImportRejection } from './messaging/import-rejection.entity';
import { InProcessMessageBus, MessageBus } from './messaging/message-bus';
import { OutboxLease } from './messaging/outbox-lease.entity';
import { OutboxMessage } from './messaging/outbox-message.entity';
import { OutboxRelay } from './messaging/outbox.relay';
import { Metrics } from './metrics/metrics';
import { MetricsController } from './metrics/metrics.controller';
import { dataSourceOptions, StorageParts } from './persistence/database';
import { ThrottleWindow } from './persistence/throttle-window.entity';

/** Entities of the shared library that each service's schema contains. */
export const COMMON_ENTITIES = [OutboxMessage, OutboxLease, ImportBatch, ImportRejection, ListVersion, ThrottleWindow];

/** A service's schema: its own entities and the shared library's, its migrations. */
export function storageOf(manifest: ServiceManifest): StorageParts {
  return { name: manifest.name, entities: [...manifest.entities, ...COMMON_ENTITIES], migrations: manifest.migrations };
}

/**
 * KAFKA_BROKERS selects Kafka (the production transport); unset, the embedded in-process bus. The Kafka
 * client is loaded only then: a process without a broker starts faster without it.
 */
async function messageBus(config: MessagingConfig, service: string): Promise<MessageBus> {
  if (!config.kafkaBrokers) return new InProcessMessageBus();
  const { KafkaMessageBus } = await import('./messaging/kafka-message-bus.js');
  return new KafkaMessageBus({
    brokers: config.kafkaBrokers,
    clientId: service,
    groupPrefix: service,
    topicPrefix: config.kafkaTopicPrefix,
    topicPartitions: config.kafkaTopicPartitions,
  });
}

/** Config, storage, auth, envelope, errors, tenancy, messaging, logging, health and metrics for one service. */
@Global()
@Module({})
export class CommonModule {
  static forRoot(manifest: ServiceManifest): DynamicModule {
    const loggingProvider = {
      provide: AppLogging,
      useFactory: (config: ServerConfig) => new AppLogging(config, manifest.name),
      inject: [ServerConfig],
    };
    return {
      module: CommonModule,
      imports: [
        ServiceConfigModule.forService(manifest),
        PassportModule,
        // nestjs-pino's Logger over this service's logger; the HTTP middleware is mounted by configureApp, before the body parsers
        LoggerModule.forRootAsync({
          inject: [AppLogging],
          useFactory: (logging: AppLogging) => ({ pinoHttp: { logger: logging.logger }, useExisting: true }),
        }),
        // readiness failures are answered (503 with each check's status), not logged with driver messages
        TerminusModule.forRoot({ logger: false }),
        // named after the service: @nestjs/typeorm keeps the names of the process's data sources, and the combined
        // server holds both services' (each injected as DataSource in its own app, below)
        TypeOrmModule.forRootAsync({
          name: manifest.name,
          inject: [DatabaseConfig],
          useFactory: (config: DatabaseConfig) => ({
            ...dataSourceOptions(config, storageOf(manifest)),
            retryAttempts: 2,
            retryDelay: 1000,
          }),
        }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        loggingProvider,
        DrainState,
        Metrics,
        TtlCache,
        JwtStrategy,
        OutboxRelay,
        { provide: MessageBus, useFactory: (config: MessagingConfig) => messageBus(config, manifest.name), inject: [MessagingConfig] },
        { provide: DataSource, useExisting: getDataSourceToken(manifest.name) },
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
      ],
      exports: [DataSource, TtlCache, OutboxRelay, MessageBus, AppLogging, DrainState, Metrics],
    };
  }
}
