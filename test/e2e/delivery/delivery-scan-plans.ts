/**
 * The dispatcher's scans stay cheap on large tables (docs/indexes.md): EXPLAIN of the statements it runs
 * shows the tenants with PENDING messages read from an index alone (a few rows), each tenant's due messages
 * as a range of that index in creation order (no filesort), and the claims in force per tenant from
 * idx_message_delivery_claimed_until. Over some thousands of analysed rows, most of them sent.
 * MySQL/MariaDB only: on the SQLite leg (no DB_URL) the tests are reported as skipped.
 */
import { SelectQueryBuilder } from 'typeorm';
import { DeliveryClaims } from '../../../apps/main-service/src/message/delivery/delivery-claims';
import { usingMysql } from '../../support/database';
import { startApp, TestApp } from '../../support/test-app';
import { budget } from '../../support/time-budget';
import type { Json } from '../../support/json';

const mysqlDescribe = usingMysql() ? describe : describe.skip;
const T0 = 1767225600000;

mysqlDescribe('EXPLAIN of the dispatcher scans (MySQL/MariaDB)', () => {
  let t: TestApp;
  let claims: DeliveryClaims;

  beforeAll(async () => {
    t = await startApp({ DISPATCH_ENABLED: 'false' });
    claims = t.app.get(DeliveryClaims);
    // 5000 e-mails over 4 tenants, 1 in 47 PENDING; 500 bookkeeping rows, 1 in 5 claimed
    await t.dataSource.query(
      `INSERT INTO message_email (tenant_id, email_id, email_config_id, from_address, to_addresses, subject, content, status,
         retry_count, revision, created_username, created_time, last_modified_username, last_modified_time, delete_time)
       WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 99)
       SELECT CONCAT('tenant-', x % 4), CONCAT('id', x), IF(x % 3 = 0, NULL, 'relay'), 'noreply@example.com', 'a@example.com', 's', 'c',
         IF(x % 47 = 0, 'PENDING', 'SENT'), 0, 1, 'p', ${T0} + x, 'p', ${T0} + x, 0
       FROM (SELECT a.n * 100 + b.n AS x FROM seq a CROSS JOIN seq b WHERE a.n < 50) rows_`,
    );
    await t.dataSource.query(
      `INSERT INTO message_delivery (channel, tenant_id, message_id, next_attempt_time, claimed_by, claimed_until)
       WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 499)
       SELECT 'email', CONCAT('tenant-', n % 4), CONCAT('id', n * 10), 0, IF(n % 5 = 0, 'other', NULL),
         IF(n % 5 = 0, ${T0} * 2, 0) FROM seq`,
    );
    for (const table of ['message_email', 'message_delivery']) await t.dataSource.query(`ANALYZE TABLE ${table}`);
  }, budget(60_000));
  afterAll(async () => {
    await t?.close();
  });

  /** The statement `run` makes through a query builder, and what it found. */
  async function statementOf<T>(run: () => Promise<T>): Promise<{ sql: [string, unknown[]]; result: T }> {
    const spy = jest.spyOn(SelectQueryBuilder.prototype, 'getRawMany');
    try {
      const result = await run();
      const builder = spy.mock.contexts[0] as SelectQueryBuilder<object>;
      return { sql: builder.getQueryAndParameters(), result };
    } finally {
      spy.mockRestore();
    }
  }
  const explain = ([sql, params]: [string, unknown[]]): Promise<Json[]> => t.dataSource.query(`EXPLAIN ${sql}`, params);

  it('the tenants with PENDING e-mails come from an index alone', async () => {
    const { sql, result } = await statementOf(() => claims.tenantsWithPendingAcrossTenants('email'));
    expect(result).toEqual(['tenant-0', 'tenant-1', 'tenant-2', 'tenant-3']);
    const [row] = await explain(sql);
    // an index alone, jumping from tenant to tenant (MariaDB picks idx_email_dispatch or idx_email_status): not the table's rows
    expect(String(row.Extra)).toMatch(/Using index/);
    expect(String(row.Extra)).not.toMatch(/filesort|temporary/);
    expect(Number(row.rows)).toBeLessThan(100);
  });

  it("a tenant's due e-mails are a range of idx_email_dispatch in creation order, paused configurations left out", async () => {
    const { sql, result } = await statementOf(() => claims.dueInTenant('email', 'tenant-0', T0 + 1, 4, ['paused', null]));
    expect(result.length).toBeGreaterThan(0);
    const rows = await explain(sql);
    // status, delete_time and the tenant looked up in the index (as equalities, or with the creation time as a
    // range behind them): only this tenant's waiting messages are read
    expect(rows[0]).toMatchObject({ table: 'm', key: 'idx_email_dispatch' });
    expect(rows[0].ref === 'const,const,const' || rows[0].type === 'range').toBe(true);
    expect(String(rows[0].Extra)).not.toMatch(/filesort/);
    expect(rows[1]).toMatchObject({ table: 'd', type: 'eq_ref', key: 'PRIMARY' });
  });

  it('the claims in force per tenant come from idx_message_delivery_claimed_until', async () => {
    const { sql, result } = await statementOf(() => claims.inFlightAcrossTenants(T0, 'this-replica'));
    expect([...result.values()].reduce((a, b) => a + b, 0)).toBe(100);
    // a replica's own claims are left to it (it counts its attempts as they run)
    expect([...(await claims.inFlightAcrossTenants(T0, 'other')).values()]).toEqual([0, 0, 0, 0]);
    const [row] = await explain(sql);
    expect(row.key).toBe('idx_message_delivery_claimed_until');
    expect(String(row.Extra)).toMatch(/Using index/);
  });
});
