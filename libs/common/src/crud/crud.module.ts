import { DynamicModule, Module, OnApplicationBootstrap, OnModuleInit, Provider, Type } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CrudConfig } from '../config/crud.config';
import { MessageBus } from '../messaging/message-bus';
import { OutboxRelay } from '../messaging/outbox.relay';
import { AsyncImporter } from './imports/async-importer';
import { importerToken, standardController } from './http/crud.controller';
import { CrudService } from './service/crud.service';
import { AnyResource as Resource } from './fields/resource';
import { asyncImportTopic } from './fields/import-list';
import { TtlCache } from './service/ttl-cache';
import { ensureSqliteHistoryTriggers } from '../history/history-triggers';

export interface ResourceRegistration {
  resource: Resource;
  /** A controller extending CrudController(resource), when the resource has more routes. */
  controller?: Type<unknown>;
}

/** The asynchronous importers of one CrudModule registration, subscribed to their topics once the app has started. */
class RegisteredImporters {
  constructor(readonly all: AsyncImporter<never>[]) {}
}

/** The resources of one CrudModule registration and their data source: their SQLite history triggers are made at start. */
class RegisteredResources {
  constructor(
    readonly all: Resource[],
    readonly dataSource: DataSource,
  ) {}
}

/** Registers resources: one tenant-scoped service each, their controllers, and async import consumers. */
@Module({})
export class CrudModule implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly importers: RegisteredImporters,
    private readonly resources: RegisteredResources,
  ) {}

  static register(registrations: ResourceRegistration[]): DynamicModule {
    const services: Provider[] = registrations.map(({ resource }) => ({
      provide: resource.serviceToken,
      useFactory: (ds: DataSource, config: CrudConfig, cache: TtlCache) => new CrudService(resource, ds, config, cache),
      inject: [DataSource, CrudConfig, TtlCache],
    }));
    const asyncResources = registrations.map((r) => r.resource).filter((resource) => asyncImportTopic(resource));
    const importers: Provider[] = asyncResources.map((resource) => ({
      provide: importerToken(resource),
      useFactory: (crud: CrudService<never>, ds: DataSource, relay: OutboxRelay, bus: MessageBus) =>
        new AsyncImporter(crud, ds, relay, bus),
      inject: [resource.serviceToken, DataSource, OutboxRelay, MessageBus],
    }));
    const registered: Provider = {
      provide: RegisteredImporters,
      useFactory: (...all: AsyncImporter<never>[]) => new RegisteredImporters(all),
      inject: asyncResources.map(importerToken),
    };
    const resources: Provider = {
      provide: RegisteredResources,
      useFactory: (ds: DataSource) =>
        new RegisteredResources(
          registrations.map((r) => r.resource),
          ds,
        ),
      inject: [DataSource],
    };
    return {
      module: CrudModule,
      providers: [...services, ...importers, registered, resources],
      controllers: registrations.map((r) => r.controller ?? standardController(r.resource)),
      exports: [...services, ...importers],
    };
  }

  /** Before any write is served: on SQLite every change must meet its table's history triggers. */
  async onModuleInit(): Promise<void> {
    await ensureSqliteHistoryTriggers(this.resources.dataSource, this.resources.all);
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const importer of this.importers.all) await importer.subscribe();
  }
}
