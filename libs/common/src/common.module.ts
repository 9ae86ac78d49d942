import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TerminusModule } from '@nestjs/terminus';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccessGuard } from './auth/access.guard';
import { JwtStrategy } from './auth/jwt.strategy';
import type { ServiceManifest } from './app/service-manifest';
import { AdmissionConfig } from './config/admission.config';
import { DatabaseConfig } from './config/database.config';
import { ServerConfig } from './config/server.config';
import { ServiceConfigModule } from './config/service-config.module';
import { FilterCount } from './crud/tables/filter-count.entity';
import { LiveCount } from './crud/tables/live-count.entity';
import { DeletedCount } from './crud/tables/deleted-count.entity';
import { TtlCache } from './crud/service/ttl-cache';
import { DrainState } from './health/drain-state';
import { HealthController } from './health/health.controller';
import { HealthDetails } from './health/health-details';
import { SchemaState } from './health/schema-state';
import { EnvelopeExceptionFilter } from './http/exception.filter';
import { addShippedTexts } from './i18n/catalogues';
import { AppLogging } from './logging/app-logging';
import { Metrics } from './metrics/metrics';
import { Admission } from './overload/admission';
import { KnownCallers } from './overload/known-callers';
import { MetricsController } from './metrics/metrics.controller';
import { dataSourceOptions, StorageParts } from './persistence/database';
import { ReplicaLease } from './persistence/replica-lease.entity';
import { ThrottleWindow } from './persistence/throttle-window.entity';
import { RetentionJob } from './retention/retention.job';
import { RecordHistory } from './history/record-history.entity';
import { HistoryCount, HistoryWriterCount } from './history/history-count.entity';

/** Entities of the shared library that each service's schema contains. */
export const COMMON_ENTITIES = [
  LiveCount,
  FilterCount,
  DeletedCount,
  ThrottleWindow,
  ReplicaLease,
  RecordHistory,
  HistoryCount,
  HistoryWriterCount,
];

/** A service's schema: its own entities and the shared library's, its migrations. */
export function storageOf(manifest: ServiceManifest): StorageParts {
  return { name: manifest.name, entities: [...manifest.entities, ...COMMON_ENTITIES], migrations: manifest.migrations };
}

/**
 * Config, storage, auth, envelope, errors, tenancy, logging, health, metrics and retention for one service. Messaging is not
 * here: a service with asynchronous work imports MessagingModule.
 */
@Global()
@Module({})
export class CommonModule {
  static forRoot(manifest: ServiceManifest): DynamicModule {
    if (manifest.texts) addShippedTexts(manifest.texts);
    const loggingProvider = {
      provide: AppLogging,
      useFactory: (config: ServerConfig) => new AppLogging(config, manifest),
      inject: [ServerConfig],
    };
    return {
      module: CommonModule,
      imports: [
        ServiceConfigModule.forService(manifest),
        PassportModule,
        // the retention job finds the app's resources and age rules among its providers
        DiscoveryModule,
        // readiness failures are answered (503 with each check's status), not logged with driver messages
        TerminusModule.forRoot({ logger: false }),
        // named after the service: @nestjs/typeorm keeps the names of the process's data sources, and the combined
        // server holds both services' (each injected as DataSource in its own app, below)
        TypeOrmModule.forRootAsync({
          name: manifest.name,
          inject: [DatabaseConfig, AdmissionConfig],
          useFactory: (config: DatabaseConfig, admission: AdmissionConfig) => ({
            ...dataSourceOptions(config, storageOf(manifest), 'service', admission.requestConnections),
            retryAttempts: 2,
            retryDelay: 1000,
          }),
        }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        loggingProvider,
        DrainState,
        HealthDetails,
        SchemaState,
        Metrics,
        Admission,
        KnownCallers,
        TtlCache,
        JwtStrategy,
        RetentionJob,
        { provide: DataSource, useExisting: getDataSourceToken(manifest.name) },
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
      ],
      exports: [DataSource, TtlCache, AppLogging, DrainState, HealthDetails, Metrics, Admission, KnownCallers, RetentionJob],
    };
  }
}
