/**
 * The CRUD base's general options on a fixture resource, against the real database of the leg
 * (in-memory SQLite, or a fresh MySQL/MariaDB database when DB_URL is set): time ranges,
 * write-only columns and the toColumns mapping.
 */
import { createHash } from 'node:crypto';
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { createTestDatabase, TestDatabase } from '../../../../test/support/database';
import { AppConfig } from '../config/app-config';
import { AppException } from '../http/app-exception';
import { BaseRecord } from '../persistence/base-record';
import { epochMillis } from '../persistence/columns';
import { SnakeNamingStrategy } from '../persistence/snake-naming.strategy';
import { RequestContext } from '../tenancy/request-context';
import { CrudService } from './crud.service';
import { Text } from './fields';
import { defineResource, ResourceOptions } from './resource';
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
let config: AppConfig;

const asTenant = <T>(tenantId: string, fn: () => Promise<T>): Promise<T> =>
  RequestContext.run(() => {
    RequestContext.setPrincipal({ tenantId, username: 'tester', roles: [], permissions: [] });
    return fn();
  });

const storedHash = async (id: string): Promise<string | null> =>
  (await dataSource.getRepository(Gadget).findOne({ where: { gadgetId: id }, select: { gadgetId: true, secretHash: true } }))?.secretHash ?? null;

beforeAll(async () => {
  database = await createTestDatabase();
  config = new AppConfig({ ...process.env, ...database.env }, { port: 0 });
  const common = { entities: [Gadget], namingStrategy: new SnakeNamingStrategy(), synchronize: true };
  dataSource = new DataSource(
    config.dbUrl ? { ...common, type: 'mysql', url: config.dbUrl.replace(/^mariadb:/, 'mysql:'), charset: 'utf8mb4_bin' } : { ...common, type: 'better-sqlite3', database: ':memory:' },
  );
  await dataSource.initialize();
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
      for (const [gadgetId, seenTime] of [['a', 1000], ['b', 2000], ['c', 3000]] as const) await crud.save({ gadgetId, name: `n-${gadgetId}`, seenTime, secret: `s-${gadgetId}` });
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
    const props = (dto: object) => Reflect.getMetadata('swagger/apiModelPropertiesArray', (dto as { prototype: object }).prototype) as string[];
    for (const dto of [resource.filterDto, resource.listDto, resource.pageDto]) expect(props(dto)).toEqual(expect.arrayContaining([':seenTimeStart', ':seenTimeEnd']));
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

  it('refuses to start when a write-only column would be selected', () => {
    const leaky = defineResource({ ...options, writeOnly: ['visibleNote'] });
    expect(() => new CrudService(leaky, dataSource, config, new TtlCache())).toThrow('write-only column visibleNote must exist and be declared with select: false');
    const missing = defineResource({ ...options, writeOnly: ['nope' as never] });
    expect(() => new CrudService(missing, dataSource, config, new TtlCache())).toThrow('write-only column nope');
  });
});
