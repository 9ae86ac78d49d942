/**
 * The CRUD base's general options on a fixture resource, against the real database of the leg
 * (in-memory SQLite, or a fresh MySQL/MariaDB database when DB_URL is set): time ranges,
 * write-only columns and the toColumns mapping; and the tenant-scoped tables under it: every
 * statement confined to the scope's tenant (and live records), no operation without a principal.
 */
import { createHash } from 'node:crypto';
import { Column, DataSource, Entity, In, PrimaryColumn } from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase } from '../../../../../test/support/database';
import { CrudConfig } from '../../config/crud.config';
import { readConfig } from '../../config/environment';
import { AppException } from '../../http/app-exception';
import { BaseRecord } from '../../persistence/base-record';
import { epochMillis } from '../../persistence/columns';
import { RequestContext } from '../../tenancy/request-context';
import { AllTenantsRead, TenantScope } from '../../tenancy/tenant-scope';
import { CrudService } from './crud.service';
import { Text } from '../fields/fields';
import { LiveCount } from '../tables/live-count.entity';
import { defineResource, ResourceOptions } from '../fields/resource';
import { TenantTable } from '../tables/tenant-table';
import { LiveRecordTable } from '../tables/live-record-table';
import { TtlCache } from './ttl-cache';

@Entity('fixture_gadget')
class Gadget extends BaseRecord {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  gadgetId: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'bigint', nullable: true, transformer: epochMillis })
  seenTime: number | null;

  @Column({ type: 'varchar', length: 64, nullable: true, select: false })
  secretHash: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  visibleNote: string | null;
}

class GadgetSave {
  gadgetId?: string;
  @Text({ max: 64, required: true })
  name: string;
  seenTime?: number | null;
  @Text({ max: 64, writeOnly: true })
  secret?: string | null;
  visibleNote?: string | null;
}

/** A tenant-owned table that is not a record (no revision, no logical deletion). */
@Entity('fixture_gadget_event')
class GadgetEvent {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  eventId: string;

  @Column({ type: 'varchar', length: 64 })
  note: string;
}

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');
const options: ResourceOptions<Gadget> = {
  path: 'fixture/gadget',
  tag: 'fixture',
  permission: 'fixture-gadget',
  title: 'Gadget',
  entity: Gadget,
  idField: 'gadgetId',
  saveDto: GadgetSave,
  filters: ['name'],
  sortable: ['name'],
  defaultSort: [['seenTime', 'ASC']],
  timeRange: 'seenTime',
  writeOnly: ['secretHash'],
  toColumns: ({ secret, ...row }) => (secret === undefined ? row : { ...row, secretHash: secret === null ? null : hash(secret as string) }),
};
const resource = defineResource(options);

let database: TestDatabase;
let dataSource: DataSource;
let config: CrudConfig;

const asTenant = <T>(tenantId: string, fn: () => Promise<T>): Promise<T> =>
  RequestContext.run(() => {
    RequestContext.setPrincipal({ tenantId, username: 'tester', roles: [], permissions: [] });
    return fn();
  });

const storedHash = async (id: string): Promise<string | null> =>
  (await dataSource.getRepository(Gadget).findOne({ where: { gadgetId: id }, select: { gadgetId: true, secretHash: true } }))?.secretHash ??
  null;

beforeAll(async () => {
  database = await createTestDatabase();
  config = readConfig(CrudConfig, { ...process.env, ...database.env });
  dataSource = await fixtureDataSource(database, [Gadget, GadgetEvent, LiveCount], { counted: [Gadget] });
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

describe('CrudService general options', () => {
  let crud: CrudService<Gadget>;
  beforeAll(async () => {
    crud = new CrudService(resource, dataSource, config, new TtlCache());
    await asTenant('t1', async () => {
      for (const [gadgetId, seenTime] of [
        ['a', 1000],
        ['b', 2000],
        ['c', 3000],
      ] as const)
        await crud.save({ gadgetId, name: `n-${gadgetId}`, seenTime, secret: `s-${gadgetId}` });
    });
    await asTenant('t2', () => crud.save({ gadgetId: 'z', name: 'n-z', seenTime: 2000 }));
  });

  const ids = (rows: Gadget[]) => rows.map((r) => r.gadgetId);

  it('time range bounds are inclusive, combine with filters, and stay in the tenant', async () => {
    await asTenant('t1', async () => {
      expect(ids(await crud.list({ seenTimeStart: 2000 }))).toEqual(['b', 'c']);
      expect(ids(await crud.list({ seenTimeEnd: 2000 }))).toEqual(['a', 'b']);
      expect(ids(await crud.list({ seenTimeStart: 2000, seenTimeEnd: 2000 }))).toEqual(['b']);
      expect(ids(await crud.list({ seenTimeStart: 1000, seenTimeEnd: 3000, name: 'n-c' }))).toEqual(['c']);
      expect(await crud.count({ seenTimeStart: 1500 })).toBe(2);
      const page = await crud.page({ seenTimeEnd: 2500, current: 1, pageSize: 1 });
      expect([ids(page.data), page.extraData.total]).toEqual([['a'], 2]);
    });
  });

  it('refuses a start after the end with a validation error', async () => {
    await asTenant('t1', async () => {
      await expect(crud.list({ seenTimeStart: 3, seenTimeEnd: 2 })).rejects.toThrow(AppException);
      await expect(crud.count({ seenTimeStart: 3, seenTimeEnd: 2 })).rejects.toThrow('seenTimeStart must not be greater than seenTimeEnd');
    });
  });

  it('documents the bounds in the filter, list and page DTOs', () => {
    const props = (dto: object) =>
      Reflect.getMetadata('swagger/apiModelPropertiesArray', (dto as { prototype: object }).prototype) as string[];
    for (const dto of [resource.filterDto, resource.listDto, resource.pageDto])
      expect(props(dto)).toEqual(expect.arrayContaining([':seenTimeStart', ':seenTimeEnd']));
  });

  it('refuses a resource whose time-range field is also an exact filter', () => {
    expect(() => defineResource({ ...options, filters: ['name', 'seenTime'] })).toThrow(/time-range field seenTime/);
  });

  it('stores write-only values through toColumns and never reads them back', async () => {
    await asTenant('t1', async () => {
      expect(await storedHash('a')).toBe(hash('s-a'));
      const reads = [await crud.getById('a'), ...(await crud.list({})), ...(await crud.page({ current: 1, pageSize: 10 })).data];
      expect(reads).toHaveLength(7);
      for (const row of reads) expect(JSON.parse(JSON.stringify(row))).not.toHaveProperty('secretHash'); // as the envelope serializes it
    });
  });

  it('keeps a write-only value when an update omits it, replaces or clears it when given', async () => {
    await asTenant('t1', async () => {
      expect(await crud.updateById({ gadgetId: 'b', visibleNote: 'changed' })).toBe(true);
      expect(await storedHash('b')).toBe(hash('s-b'));
      expect(await crud.updateById({ gadgetId: 'b', secret: 'rotated' })).toBe(true);
      expect(await storedHash('b')).toBe(hash('rotated'));
      expect(await crud.updateById({ gadgetId: 'b', secret: null })).toBe(true);
      expect(await storedHash('b')).toBeNull();
    });
  });

  it('checkWrite sees the save body, and on update the stored record with the changes; a refusal writes nothing', async () => {
    const seen: Record<string, unknown>[] = [];
    const checked = new CrudService(
      defineResource({
        ...options,
        checkWrite: async (scope, record) => {
          seen.push({ tenantId: scope.tenantId, ...record });
          if (record.visibleNote === 'forbidden') throw AppException.validation('visibleNote must not be forbidden');
        },
      }),
      dataSource,
      config,
      new TtlCache(),
    );
    await asTenant('t1', async () => {
      await expect(checked.save({ gadgetId: 'chk', name: 'n-chk', visibleNote: 'forbidden' })).rejects.toThrow('must not be forbidden');
      expect(await checked.getById('chk')).toBeNull();
      expect(await checked.save({ gadgetId: 'chk', name: 'n-chk', visibleNote: 'fine' })).toBe(true);
      await expect(checked.updateById({ gadgetId: 'chk', visibleNote: 'forbidden' })).rejects.toThrow('must not be forbidden');
      expect(await checked.getById('chk')).toMatchObject({ visibleNote: 'fine', revision: 1 });
      expect(await checked.updateById({ gadgetId: 'chk', seenTime: 5 })).toBe(true);
      // no live record with that id: nothing to check, nothing updated
      expect(await checked.updateById({ gadgetId: 'absent', visibleNote: 'forbidden' })).toBe(false);
    });
    expect(seen[0]).toEqual({ tenantId: 't1', gadgetId: 'chk', name: 'n-chk', visibleNote: 'forbidden' });
    expect(seen[3]).toMatchObject({ tenantId: 't1', gadgetId: 'chk', name: 'n-chk', visibleNote: 'fine', seenTime: 5, revision: 1 });
    expect(seen).toHaveLength(4);
  });

  it('refuses a resource with both checkWrite and importList (imports do not apply the check)', () => {
    expect(() => defineResource({ ...options, importList: 'sync', checkWrite: async () => undefined })).toThrow(/checkWrite/);
  });

  it('refuses to start when a write-only column would be selected', () => {
    const leaky = defineResource({ ...options, writeOnly: ['visibleNote'] });
    expect(() => new CrudService(leaky, dataSource, config, new TtlCache())).toThrow(
      'write-only column visibleNote must exist and be declared with select: false',
    );
    const missing = defineResource({ ...options, writeOnly: ['nope' as never] });
    expect(() => new CrudService(missing, dataSource, config, new TtlCache())).toThrow('write-only column nope');
  });
});

describe('tenant-scoped tables', () => {
  let crud: CrudService<Gadget>;
  let table: LiveRecordTable<Gadget>;
  const t1 = TenantScope.system('fixture tenant one', 'scope-1', 'sys-1');
  const t2 = TenantScope.system('fixture tenant two', 'scope-2', 'sys-2');
  const names = (rows: Gadget[]) => rows.map((r) => r.name).sort();

  beforeAll(async () => {
    crud = new CrudService(resource, dataSource, config, new TtlCache());
    table = new LiveRecordTable(Gadget, 'gadgetId', dataSource);
    await table.insertRecords(t1, [
      { gadgetId: 'same', name: 'one', seenTime: 1 },
      { gadgetId: 'gone', name: 'one-deleted', seenTime: 2 },
    ]);
    await table.insertRecords(t2, [{ gadgetId: 'same', name: 'two', seenTime: 1 }]);
    expect(await table.softDelete(t1, { gadgetId: 'gone' })).toBe(1);
  });

  it('stamps the scope on new records', async () => {
    const [stored] = await dataSource.getRepository(Gadget).find({ where: { tenantId: 'scope-1', gadgetId: 'same' } });
    expect(stored).toMatchObject({
      tenantId: 'scope-1',
      revision: 1,
      createdUsername: 'sys-1',
      lastModifiedUsername: 'sys-1',
      deleteTime: null,
    });
  });

  it("reads only the scope's live records, whatever the filter names", async () => {
    expect(names(await table.find(t1))).toEqual(['one']);
    expect(names(await table.find(t2, { gadgetId: In(['same', 'gone']) }))).toEqual(['two']);
    expect((await table.findOne(t1, { gadgetId: 'same' }))?.name).toBe('one');
    expect(await table.findOne(t1, { gadgetId: 'gone' })).toBeNull();
    expect(await table.exists(t2, { name: 'one' })).toBe(false);
    expect(await table.select(t1, {}, 'g').andWhere('g.seen_time >= 0').getCount()).toBe(1);
    // @ts-expect-error the tenant comes from the scope: a filter cannot name one
    expect(names(await table.find(t1, { tenantId: 'scope-2' }))).toEqual(['one']);
  });

  it("writes only the scope's live records", async () => {
    expect(await table.updateRecords(t2, { gadgetId: 'same' }, { visibleNote: 'by two' })).toBe(1);
    expect(await table.updateRecords(t2, { gadgetId: 'gone' }, { visibleNote: 'by two' })).toBe(0);
    expect(await table.updateColumns(t1, { gadgetId: 'gone' }, { visibleNote: 'revived?' })).toBe(0);
    const [one, two] = await Promise.all([table.findOne(t1, { gadgetId: 'same' }), table.findOne(t2, { gadgetId: 'same' })]);
    expect([one?.visibleNote, one?.revision]).toEqual([null, 1]);
    expect([two?.visibleNote, two?.revision, two?.lastModifiedUsername]).toEqual(['by two', 2, 'sys-2']);
    expect(await table.softDelete(t2, { gadgetId: In(['gone']) })).toBe(0);
  });

  it('reads across tenants only with a named AllTenantsRead, and still only live records', async () => {
    const anyTenant = AllTenantsRead.of('fixture lookup by name');
    expect((await table.findOneInAnyTenant(anyTenant, { name: 'two' }))?.tenantId).toBe('scope-2');
    expect(await table.findOneInAnyTenant(anyTenant, { name: 'one-deleted' })).toBeNull();
  });

  it('a tenant table of other rows stamps and confines the tenant too', async () => {
    const events = new TenantTable(GadgetEvent, dataSource);
    await events.insertRows(t1, [{ eventId: 'e1', note: 'n' }]);
    await events.insertRows(t2, [{ eventId: 'e1', note: 'n' }]);
    expect(await events.updateColumns(t1, { eventId: 'e1' }, { note: 'changed' })).toBe(1);
    expect((await events.find(t2)).map((e) => [e.tenantId, e.note])).toEqual([['scope-2', 'n']]);
    expect((await events.findOne(t1, { eventId: 'e1' }))?.note).toBe('changed');
  });

  it('refuses every standard operation without a principal, writing nothing', async () => {
    const before = await dataSource.getRepository(Gadget).count();
    const calls: (() => Promise<unknown>)[] = [
      () => crud.count({}),
      () => crud.getById('same'),
      () => crud.list({}),
      () => crud.page({ current: 1, pageSize: 10 }),
      () => crud.listCache({}),
      () => crud.save({ name: 'anonymous' }),
      () => crud.updateById({ gadgetId: 'same', name: 'anonymous' }),
      () => crud.updateMatching({ name: 'one' }, { visibleNote: 'anonymous' }),
      () => crud.removeById('same'),
      () => crud.removeByIds(['same']),
      () => crud.importRows([{ name: 'anonymous' }]),
      () => crud.saveOrUpdate({ name: 'anonymous' }),
      () => crud.saveBatch([{ name: 'anonymous' }]),
      () => crud.saveIfAbsent({ name: 'anonymous' }),
      () => crud.countUpTo({}, 10),
      () => crud.distinctValues('name', {}),
    ];
    for (const call of calls) await expect(call()).rejects.toThrow('No authenticated principal in the request context');
    // a request context whose token was never verified is no better
    await expect(RequestContext.run(() => crud.save({ name: 'anonymous' }))).rejects.toThrow('No authenticated principal');
    expect(await dataSource.getRepository(Gadget).count()).toBe(before);
    expect((await table.findOne(t1, { gadgetId: 'same' }))?.name).toBe('one');
  });
});

describe('operations beyond the standard routes, in a given scope', () => {
  const keyed = defineResource({ ...options, path: 'fixture/keyed-gadget', uniqueKey: ['name'] });
  let crud: CrudService<Gadget>;
  const scope = TenantScope.system('fixture tenant three', 'scope-3', 'sys-3');
  const other = TenantScope.system('fixture tenant four', 'scope-4', 'sys-4');
  const stored = (name: string, inScope = scope) => crud.list({ name }, inScope);
  const statusOf = (call: Promise<unknown>) =>
    call.then(
      () => 'written',
      (error: AppException) => error.bodyStatus,
    );

  beforeAll(() => {
    crud = new CrudService(keyed, dataSource, config, new TtlCache());
  });

  it('saveOrUpdate updates by id, else by business key, else creates; revision checked where it updates', async () => {
    expect(await crud.saveOrUpdate({ gadgetId: 'k1', name: 'key-a', visibleNote: 'new' }, scope)).toBe(true);
    // no id: the record with the key is updated, its id kept
    expect(await crud.saveOrUpdate({ name: 'key-a', visibleNote: 'by key' }, scope)).toBe(true);
    expect(await stored('key-a')).toMatchObject([{ gadgetId: 'k1', visibleNote: 'by key', revision: 2, lastModifiedUsername: 'sys-3' }]);
    // the id of a live record: that record, key included
    expect(await crud.saveOrUpdate({ gadgetId: 'k1', name: 'key-b', revision: 2 }, scope)).toBe(true);
    expect(await stored('key-b')).toMatchObject([{ gadgetId: 'k1', revision: 3 }]);
    expect(await statusOf(crud.saveOrUpdate({ name: 'key-b', revision: 2 }, scope))).toBe(409);
    expect(await statusOf(crud.saveOrUpdate({ gadgetId: 'k1', name: 'key-b', revision: 2 }, scope))).toBe(409);
    // another tenant's id is absent there: a new record of that tenant, keeping the id
    expect(await crud.saveOrUpdate({ gadgetId: 'k1', name: 'key-b', revision: 7 }, other)).toBe(true);
    expect(await stored('key-b', other)).toMatchObject([{ gadgetId: 'k1', tenantId: 'scope-4', revision: 1 }]);
    expect(await stored('key-b')).toMatchObject([{ revision: 3 }]);
  });

  it('saveOrUpdate needs a business key to look up', async () => {
    const unkeyed = new CrudService(resource, dataSource, config, new TtlCache());
    await expect(unkeyed.saveOrUpdate({ name: 'no-key' }, scope)).rejects.toThrow('has no uniqueness key');
    expect(await unkeyed.count({}, scope)).toBe(await crud.count({}, scope));
  });

  it('saveBatch inserts every row or none', async () => {
    expect(
      await crud.saveBatch(
        [
          { gadgetId: 'b1', name: 'batch-1' },
          { gadgetId: 'b2', name: 'batch-2' },
        ],
        scope,
      ),
    ).toBe(true);
    expect(
      await statusOf(
        crud.saveBatch(
          [
            { gadgetId: 'b3', name: 'batch-3' },
            { gadgetId: 'b1', name: 'batch-1' },
          ],
          scope,
        ),
      ),
    ).toBe(422);
    expect(await crud.count({ name: 'batch-3' }, scope)).toBe(0);
    expect(await crud.count({ name: 'batch-1' }, scope)).toBe(1);
  });

  it('saveIfAbsent saves a key once and never overwrites', async () => {
    expect(await crud.saveIfAbsent({ name: 'once', visibleNote: 'first' }, scope)).toBe(true);
    expect(await crud.saveIfAbsent({ name: 'once', visibleNote: 'second' }, scope)).toBe(false);
    expect(await stored('once')).toMatchObject([{ visibleNote: 'first', createdUsername: 'sys-3' }]);
  });

  it('counts up to a cap, and lists distinct values, of the matching live records', async () => {
    await crud.saveBatch(
      [1, 2, 3].map((i) => ({ name: `counted-${i}`, visibleNote: 'counted', seenTime: i % 2 })),
      scope,
    );
    expect(await crud.countUpTo({ visibleNote: 'counted' }, 2, scope)).toBe(2);
    expect(await crud.countUpTo({ visibleNote: 'counted' }, 10, scope)).toBe(3);
    expect(await crud.countUpTo({ visibleNote: 'counted' }, 10, other)).toBe(0);
    expect((await crud.distinctValues('seenTime', { visibleNote: 'counted' }, scope)).map(Number).sort()).toEqual([0, 1]);
  });
});
