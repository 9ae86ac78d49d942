/**
 * FAST_PATHS: validated like every variable, on by default, and `off` really turns each fast path off:
 * TenantTable's finds, counts and updates go through TypeORM's repository and query builder, class-validator's
 * metadata storage is left as it comes, and the adapter leaves every route to Express's own router.
 */
import { withFastPaths } from '../../../../test/support/fast-paths-env';
import type { Express } from 'express';
import { getMetadataStorage } from 'class-validator';
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase } from '../../../../test/support/database';
import { checkConfig } from '../config/environment';
import { FastPathsConfig } from '../config/fast-paths.config';
import { SHARED_CONFIG } from '../config/service-config.module';
import { TenantTable } from '../crud/tables/tenant-table';
import { AppHttpAdapter } from '../http/server';
import { validationPipe } from '../http/validation';
import { TenantScope } from '../tenancy/tenant-scope';
import { fastPathsOn } from './fast-paths';
import { PreparedFinds } from './prepared-finds';
import { PreparedUpdates } from './prepared-updates';

@Entity('fixture_lamp')
class Lamp {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  lampId: string;

  @Column({ type: 'varchar', length: 32 })
  colour: string;
}

describe('FAST_PATHS', () => {
  it('is on by default, off with `off`, and a bad value is refused by name at start-up', () => {
    expect(fastPathsOn({})).toBe(true);
    expect(fastPathsOn({ FAST_PATHS: 'on' })).toBe(true);
    expect(fastPathsOn({ FAST_PATHS: 'off' })).toBe(false);
    expect(() => fastPathsOn({ FAST_PATHS: 'no' })).toThrow(/FAST_PATHS/);
    expect(SHARED_CONFIG).toContain(FastPathsConfig);
    expect(checkConfig(FastPathsConfig, { FAST_PATHS: 'no' }).problems).toEqual([expect.stringMatching(/^FAST_PATHS: /)]);
  });
});

describe('FAST_PATHS=off', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const scope = TenantScope.system('fast paths test', 't1', 'tester');

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await fixtureDataSource(database, [Lamp]);
    await dataSource.manager.insert(Lamp, [{ tenantId: 't1', lampId: 'l1', colour: 'red' }]);
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await dataSource?.destroy();
    await database?.drop();
  });

  /** Finds, counts and updates through a new TenantTable; how often the prepared statements were used. */
  async function tableWork(value: 'on' | 'off') {
    const finds = jest.spyOn(PreparedFinds.prototype, 'find');
    const counts = jest.spyOn(PreparedFinds.prototype, 'count');
    const updates = jest.spyOn(PreparedUpdates.prototype, 'update');
    const table = await withFastPaths(value, () => new TenantTable(Lamp, dataSource));
    await withFastPaths(value, async () => {
      expect(await table.updateColumns(scope, { lampId: 'l1' }, { colour: value })).toBe(1);
      expect(await table.findOne(scope, { lampId: 'l1' })).toEqual(
        Object.assign(new Lamp(), { tenantId: 't1', lampId: 'l1', colour: value }),
      );
      expect(await table.count(scope)).toBe(1);
    });
    const used = finds.mock.calls.length + counts.mock.calls.length + updates.mock.calls.length;
    jest.restoreAllMocks();
    return used;
  }

  it("makes TenantTable use TypeORM's repository and query builder only", async () => {
    expect(await tableWork('off')).toBe(0);
    expect(await tableWork('on')).toBe(3);
  });

  it("leaves class-validator's metadata storage untouched", async () => {
    const storage = getMetadataStorage();
    const patched = () => Object.prototype.hasOwnProperty.call(storage, 'getTargetValidationMetadatas');
    await withFastPaths('off', () => validationPipe());
    expect(patched()).toBe(false);
    await withFastPaths('on', () => validationPipe());
    expect(patched()).toBe(true);
  });

  it("leaves every route to Express's own router", async () => {
    const routesOf = (value: 'on' | 'off') =>
      withFastPaths(value, () => {
        const adapter = new AppHttpAdapter();
        adapter.get('/svc/api/lamp/getById', () => undefined);
        adapter.post('/svc/api/lamp/save', () => undefined);
        const layers = (adapter.getInstance<Express>() as unknown as { router: { stack: { route?: { path: string }; handle: unknown }[] } })
          .router.stack;
        return {
          routes: layers.flatMap((layer) => (layer.route ? [layer.route.path] : [])),
          grouped: layers.some((layer) => (layer.handle as { name?: string }).name === 'dispatch'),
        };
      });
    expect(await routesOf('off')).toEqual({ routes: ['/svc/api/lamp/getById', '/svc/api/lamp/save'], grouped: false });
    expect(await routesOf('on')).toEqual({ routes: [], grouped: true });
  });
});
