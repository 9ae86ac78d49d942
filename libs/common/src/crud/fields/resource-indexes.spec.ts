import { Column, Entity, getMetadataArgsStorage, Index } from 'typeorm';
import { BaseRecord } from '../../persistence/base-record';
import { Field } from './fields';
import { defineResource } from './resource';
import { indexName, IndexedResource, resourceIndexes } from './resource-indexes';

@Entity('fixture_gadget')
class Gadget extends BaseRecord {
  @Field.id() gadgetId: string;
  @Field.text({ max: 64, required: true, key: true }) code: string;
  @Field.text({ max: 64 }) colour: string | null;
  /** `read` is an SQL keyword: the column has its own name, which the index name shows. */
  @Field.bool({ name: 'is_read', default: false }) read: boolean;
  @Field.int() sort: number | null;
  @Field.time() seenTime: number | null;
  @Field.text({ max: 10000 }) notes: string | null;
}

const gadget: IndexedResource = {
  path: 'fixture/gadget',
  entity: Gadget,
  filters: ['colour', 'read'],
  sortable: ['seenTime', 'code', 'createdTime', 'lastModifiedTime'],
  defaultSort: [['seenTime', 'DESC']],
  timeRange: 'seenTime',
  uniqueKey: ['code'],
};

const columnsOf = (r: IndexedResource) => resourceIndexes(r).map((i) => [i.name, i.columns.join(' '), i.unique]);

describe('indexes derived from a resource declaration', () => {
  it('one for the default sort (also the time range), one per exact filter then the default sort, one per sortable field, the unique key', () => {
    expect(columnsOf(gadget)).toEqual([
      ['idx_fixture_gadget_seen_time', 'tenantId deleteTime seenTime', false],
      ['idx_fixture_gadget_colour_seen_time', 'tenantId deleteTime colour seenTime', false],
      ['idx_fixture_gadget_is_read_seen_time', 'tenantId deleteTime read seenTime', false],
      // seenTime's own index is the default sort's: made once
      ['idx_fixture_gadget_code', 'tenantId deleteTime code', false],
      ['idx_fixture_gadget_created_time', 'tenantId deleteTime createdTime', false],
      ['idx_fixture_gadget_last_modified_time', 'tenantId deleteTime lastModifiedTime', false],
      ['uk_fixture_gadget', 'tenantId code deleteTime', true],
    ]);
  });

  it('a filter on a one-field business key is left to the unique index; a key unique across tenants has no tenant column', () => {
    const r = { ...gadget, filters: ['code'], sortable: [], uniqueAcrossTenants: true };
    expect(columnsOf(r)).toEqual([
      ['idx_fixture_gadget_seen_time', 'tenantId deleteTime seenTime', false],
      ['uk_fixture_gadget', 'code deleteTime', true],
    ]);
  });

  it('a multi-key default sort follows the filter; a filter that is a sort key is not repeated', () => {
    const r = {
      ...gadget,
      timeRange: undefined,
      uniqueKey: undefined,
      filters: ['sort'],
      sortable: [],
      defaultSort: [
        ['sort', 'ASC'],
        ['createdTime', 'ASC'],
      ],
    } as IndexedResource;
    expect(columnsOf(r)).toEqual([['idx_fixture_gadget_sort_created_time', 'tenantId deleteTime sort createdTime', false]]);
  });

  it.each([
    [
      'a default sort of mixed directions',
      {
        defaultSort: [
          ['seenTime', 'DESC'],
          ['createdTime', 'ASC'],
        ],
      },
      /mixes directions/,
    ],
    [
      'a time range that does not lead the default sort',
      { defaultSort: [['createdTime', 'DESC']] },
      /must start with the time-range field seenTime/,
    ],
    ['a filter that is no column', { filters: ['colour', 'shade'] }, /filter shade is not a column of Gadget/],
    ['a sort on a TEXT column', { sortable: ['notes'] }, /sortable field notes is a TEXT column/],
    ['a business key field without key: true', { uniqueKey: ['colour'] }, /uniqueKey field colour must be declared with key: true/],
  ])('refuses %s: no index would serve it', (_why, change, error) => {
    expect(() => resourceIndexes({ ...gadget, ...change } as IndexedResource)).toThrow(error);
  });

  it('names past 64 characters are cut and end with a hash of the whole name: stable and distinct', () => {
    const long = (column: string) => indexName('idx', 'orders_shipping_label_template_carrier_config', [column, 'created_time']);
    expect(long('shipping_label_template_id')).toHaveLength(64);
    expect(long('shipping_label_template_id')).toBe(long('shipping_label_template_id'));
    expect(long('shipping_label_template_id')).not.toBe(long('carrier_config_id'));
    expect(long('shipping_label_template_id')).toMatch(/^idx_orders_shipping_label_template_carrier_config_shipp_[0-9a-f]{8}$/);
  });
});

describe('defineResource declares the derived indexes on the entity', () => {
  @Entity('fixture_sprocket')
  class Sprocket extends BaseRecord {
    @Field.id() sprocketId: string;
    @Field.text({ max: 64, required: true }) code: string;
  }
  const declaration = {
    path: 'fixture/sprocket',
    tag: 'fixture',
    permission: 'fixture-sprocket',
    title: 'Sprocket',
    entity: Sprocket,
    idField: 'sprocketId' as const,
    filters: ['code' as const],
    sortable: [],
    defaultSort: [['createdTime', 'DESC']] as ['createdTime', 'DESC'][],
  };
  const declared = (entity: object) =>
    getMetadataArgsStorage()
      .filterIndices(entity as never)
      .map((i) => i.name);

  it('as TypeORM index metadata (what synchronize and the schema check read), once for a second resource on the entity', () => {
    defineResource(declaration);
    defineResource({ ...declaration, path: 'fixture/sprocket-again' });
    expect(declared(Sprocket)).toEqual([
      'idx_fixture_sprocket_created_time',
      'idx_fixture_sprocket_code_created_time',
      'idx_fixture_sprocket_last_modified_time',
    ]);
  });

  it('refuses a hand-written index that duplicates a derived one', () => {
    @Entity('fixture_cog')
    @Index('idx_cog_code', ['tenantId', 'deleteTime', 'code', 'createdTime'])
    class Cog extends BaseRecord {
      @Field.id() cogId: string;
      @Column({ type: 'varchar', length: 64 }) code: string;
    }
    expect(() => defineResource({ ...declaration, path: 'fixture/cog', entity: Cog, idField: 'cogId' } as never)).toThrow(
      'fixture/cog: index idx_cog_code on Cog duplicates the derived idx_fixture_cog_code_created_time; remove it',
    );
  });
});
