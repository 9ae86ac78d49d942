import { DynamicModule, Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TerminusModule } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { AccessGuard } from './auth/access.guard';
import { JwtStrategy } from './auth/jwt.strategy';
import { AppConfig } from './config/app-config';
import { TtlCache } from './crud/ttl-cache';
import { DrainState } from './health/drain-state';
import { HealthController } from './health/health.controller';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { EnvelopeExceptionFilter } from './http/exception.filter';
import { AppLogging } from './logging/app-logging';
import { ImportBatch } from './messaging/import-batch.entity';
import { ImportRejection } from './messaging/import-rejection.entity';
import { KafkaMessageBus } from './messaging/kafka-message-bus';
import { InProcessMessageBus, MessageBus } from './messaging/message-bus';
import { OutboxLease } from './messaging/outbox-lease.entity';
import { OutboxMessage } from './messaging/outbox-message.entity';
import { OutboxRelay } from './messaging/outbox.relay';
import { Metrics } from './metrics/metrics';
import { MetricsController } from './metrics/metrics.controller';
import { dataSourceOptions, StorageParts } from './persistence/database';
import { RequestContextMiddleware } from './tenancy/request-context.middleware';

export interface CommonOptions extends StorageParts {
  /** PORT when unset. */
  defaultPort: number;
}

/** Entities of the shared library that each service's schema contains. */
export const COMMON_ENTITIES = [OutboxMessage, OutboxLease, ImportBatch, ImportRejection];

/** KAFKA_BROKERS selects Kafka (the production transport); unset, the embedded in-process bus. */
function messageBus(config: AppConfig, service: string): MessageBus {
  if (!config.kafkaBrokers) return new InProcessMessageBus();
  return new KafkaMessageBus({ brokers: config.kafkaBrokers, clientId: service, groupPrefix: service, topicPrefix: config.kafkaTopicPrefix });
}

/** Config, storage, auth, envelope, errors, tenancy, messaging, logging, health and metrics for one service. */
@Global()
@Module({})
export class CommonModule implements NestModule {
  static forRoot(options: CommonOptions): DynamicModule {
    const configProvider = { provide: AppConfig, useFactory: () => new AppConfig(process.env, { port: options.defaultPort }) };
    const loggingProvider = { provide: AppLogging, useFactory: (config: AppConfig) => new AppLogging(config, options.name), inject: [AppConfig] };
    return {
      module: CommonModule,
      imports: [
        PassportModule,
        // nestjs-pino's Logger over this service's logger; the HTTP middleware is mounted by configureApp, before the body parsers
        LoggerModule.forRootAsync({ inject: [AppLogging], useFactory: (logging: AppLogging) => ({ pinoHttp: { logger: logging.logger }, useExisting: true }) }),
        // readiness failures are answered (503 with each check's status), not logged with driver messages
        TerminusModule.forRoot({ logger: false }),
        TypeOrmModule.forRootAsync({
          extraProviders: [configProvider],
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config, { ...options, entities: [...(options.entities as Function[]), ...COMMON_ENTITIES] }),
            retryAttempts: 2,
            retryDelay: 1000,
          }),
        }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        configProvider,
        loggingProvider,
        DrainState,
        Metrics,
        TtlCache,
        JwtStrategy,
        OutboxRelay,
        { provide: MessageBus, useFactory: (config: AppConfig) => messageBus(config, options.name), inject: [AppConfig] },
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
      ],
      exports: [AppConfig, TtlCache, OutboxRelay, MessageBus, AppLogging, DrainState, Metrics],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestContextMiddleware).forRoutes('{*path}');
  }
}
