/**
 * Dependency injection of the generated controllers: symbol tokens (unique per resource, so two
 * resources can never share a provider by a coinciding string) and one importer per controller,
 * shared by importList and importStatus.
 */
import { PROPERTY_DEPS_METADATA, SELF_DECLARED_DEPS_METADATA } from '@nestjs/common/constants';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BaseRecord } from '../../persistence/base-record';
import { CrudController, importerToken } from './crud.controller';
import { Text } from '../fields/fields';
import { defineResource } from '../fields/resource';
import { asyncImportTopic } from '../fields/import-list';

@Entity('fixture_widget')
class Widget extends BaseRecord {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  widgetId: string;

  @Column({ type: 'varchar', length: 64 })
  @Text({ max: 64, required: true })
  code: string;
}

class WidgetSave {
  widgetId?: string;
  @Text({ max: 64, required: true })
  code: string;
}

const base = {
  tag: 'fixture',
  permission: 'fixture-widget',
  title: 'Widget',
  entity: Widget,
  idField: 'widgetId' as const,
  saveDto: WidgetSave,
  filters: [],
  sortable: [],
  defaultSort: [],
};
const asyncResource = defineResource({
  ...base,
  path: 'fixture/widget',
  uniqueKey: ['code'],
  importList: { async: { topic: 'fixture.widget.import' } },
});
const syncResource = defineResource({ ...base, path: 'fixture/widget-sync', uniqueKey: ['code'], importList: 'sync' });

type PropertyDep = { key: string; type: unknown };
const propertyDeps = (cls: object): PropertyDep[] => Reflect.getMetadata(PROPERTY_DEPS_METADATA, cls) ?? [];
const constructorDeps = (cls: object): { index: number; param: unknown }[] => Reflect.getMetadata(SELF_DECLARED_DEPS_METADATA, cls) ?? [];

describe('CrudController injection', () => {
  it('takes an asynchronous importList only with its topic (checked by the compiler)', () => {
    // @ts-expect-error the topic is part of the option
    const untopical = defineResource({ ...base, path: 'fixture/widget-untopical', uniqueKey: ['code'], importList: 'async' });
    expect(asyncImportTopic(untopical)).toBeUndefined();
    expect(asyncImportTopic(asyncResource)).toBe('fixture.widget.import');
  });

  it('takes its service by the resource symbol', () => {
    expect(typeof asyncResource.serviceToken).toBe('symbol');
    expect(asyncResource.serviceToken).not.toBe(syncResource.serviceToken);
    expect(constructorDeps(CrudController(asyncResource)).map((d) => d.param)).toEqual([asyncResource.serviceToken]);
  });

  it('injects the importer of an async resource once, for importList and importStatus', () => {
    const controller = CrudController(asyncResource);
    expect(typeof controller.prototype['importStatus' as keyof object]).toBe('function');
    expect(propertyDeps(controller)).toEqual([{ key: 'importer', type: importerToken(asyncResource) }]);
  });

  it('injects no importer where the import is synchronous', () => {
    expect(propertyDeps(CrudController(syncResource))).toEqual([]);
  });

  it('gives each resource one stable importer symbol', () => {
    expect(typeof importerToken(asyncResource)).toBe('symbol');
    expect(importerToken(asyncResource)).toBe(importerToken(asyncResource));
    expect(importerToken(asyncResource)).not.toBe(importerToken(syncResource));
  });
});
