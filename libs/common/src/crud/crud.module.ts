import { DynamicModule, Module, OnApplicationBootstrap, Provider, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { MessageBus } from '../messaging/message-bus';
import { OutboxRelay } from '../messaging/outbox.relay';
import { AsyncImporter } from './async-importer';
import { importerToken, standardController } from './crud.controller';
import { CrudService } from './crud.service';
import { AnyResource as Resource } from './resource';
import { TtlCache } from './ttl-cache';

export interface ResourceRegistration {
  resource: Resource;
  /** A controller extending CrudController(resource), when the resource has more routes. */
  controller?: Type<unknown>;
}

/** Registers resources: one tenant-scoped service each, their controllers, and async import consumers. */
@Module({})
export class CrudModule implements OnApplicationBootstrap {
  constructor(private readonly moduleRef: ModuleRef) {}

  private static importers: string[] = [];

  static register(registrations: ResourceRegistration[]): DynamicModule {
    const providers: Provider[] = registrations.flatMap(({ resource }) => {
      const service: Provider = {
        provide: resource.serviceToken,
        useFactory: (ds: DataSource, config: AppConfig, cache: TtlCache) => new CrudService(resource, ds, config, cache),
        inject: [DataSource, AppConfig, TtlCache],
      };
      if (resource.importList !== 'async') return [service];
      const importer: Provider = {
        provide: importerToken(resource),
        useFactory: (crud: CrudService<never>, ds: DataSource, relay: OutboxRelay, bus: MessageBus) => new AsyncImporter(crud, ds, relay, bus),
        inject: [resource.serviceToken, DataSource, OutboxRelay, MessageBus],
      };
      return [service, importer];
    });
    const importers = registrations.filter((r) => r.resource.importList === 'async').map((r) => importerToken(r.resource));
    return {
      module: CrudModule,
      providers: [...providers, { provide: 'CRUD_IMPORTERS', useValue: importers }],
      controllers: registrations.map((r) => r.controller ?? standardController(r.resource)),
      exports: providers,
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    const tokens = this.moduleRef.get<string[]>('CRUD_IMPORTERS', { strict: true });
    for (const token of tokens) await this.moduleRef.get<AsyncImporter<never>>(token, { strict: true }).subscribe();
  }
}
