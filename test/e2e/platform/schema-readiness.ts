/**
 * Readiness tells the truth about the schema: on a MySQL/MariaDB database without the service's migrations
 * the service is not ready and refuses requests with the envelope's 503 (never a 500) naming the migrations,
 * logs that once, and serves as soon as the migrations have run. SQLite's schema comes from the entities.
 */
import { LogCapture } from '../../support/observability';
import { usingMysql } from '../../support/database';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';

const READY = '/main-service/health/ready';
const PAGE = `${CONFIG}/data-dictionary-type/page`;
/** pino's level of a warn line. */
const WARN = 40;

/** Polls `probe` until it holds, for at most `ms`. */
async function within(ms: number, probe: () => Promise<boolean>): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return probe();
}

const schemaOf = (res: Envelope): unknown => (res.data ?? res.extraData.health)?.details?.schema?.status;

(usingMysql() ? describe : describe.skip)('schema readiness: a MariaDB database without its migrations', () => {
  const logs = new LogCapture();
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ LOG_LEVEL: 'warn' }, { skipMigrations: true, logTo: logs })));
  afterAll(async () => t?.close());

  it('is not ready: 503 with the schema check down, the database up, no driver text', async () => {
    const res = await t.get(READY);
    expect({
      http: res.httpStatus,
      status: res.status,
      schema: schemaOf(res),
      database: schemaOf(res) && res.extraData.health.details.database.status,
    }).toEqual({
      http: 503,
      status: 503,
      schema: 'down',
      database: 'up',
    });
    expect(JSON.stringify(res)).not.toMatch(/ER_|SQL|schema_migrations/);
  });

  it('refuses every API request with the envelope 503 naming the migrations, reading the schema at most once a second', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the last read
    const queries = jest.spyOn(t.dataSource.logger, 'logQuery');
    try {
      const answers = await Promise.all(Array.from({ length: 10 }, () => t.post(PAGE, { current: 1, pageSize: 10 })));
      for (const res of answers) {
        expect({ http: res.httpStatus, status: res.status, path: res.path, data: res.data }).toEqual({
          http: 503,
          status: 503,
          path: PAGE,
          data: null,
        });
        expect(res.error).toContain('npm run migrate');
      }
      // each read looks the migrations table up first (it is missing here), its name a parameter
      const reads = queries.mock.calls.filter(([, parameters]) => parameters?.includes('schema_migrations')).length;
      expect(reads).toBeGreaterThanOrEqual(1);
      expect(reads).toBeLessThanOrEqual(2); // two when a second's boundary fell between the requests
    } finally {
      queries.mockRestore();
    }
  });

  it('still answers the probes, the metrics and the OpenAPI document', async () => {
    expect((await t.http().get('/main-service/health/live')).status).toBe(200);
    expect((await t.http().get('/main-service/metrics')).status).toBe(200);
    expect((await t.http().get('/main-service/v3/api-docs')).status).toBe(200);
  });

  it('logs the state once (one warn line naming the pending migrations and npm run migrate), not per request', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the last read: the next request reads again
    await t.post(PAGE, { current: 1, pageSize: 10 });
    await t.get(READY);
    const warnings = logs.lines.filter((line) => line.level === WARN && line.context === 'Schema');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/\b[1-9]\d* migration\(s\) pending\b.*npm run migrate/);
  });

  it('is ready and serves within two seconds once the migrations have run', async () => {
    await t.dataSource.runMigrations();
    expect(await within(2000, async () => (await t.get(READY)).httpStatus === 200)).toBe(true);
    expect(schemaOf(await t.get(READY))).toBe('up');
    expect(await t.post(PAGE, { current: 1, pageSize: 10 })).toMatchObject({ httpStatus: 200, status: 200 });
  });
});

(usingMysql() ? describe.skip : describe)('schema readiness: SQLite', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp()));
  afterAll(async () => t?.close());

  it('is always migrated (its schema comes from the entities): readiness shows the schema up', async () => {
    const res = await t.get(READY);
    expect({ http: res.httpStatus, schema: schemaOf(res) }).toEqual({ http: 200, schema: 'up' });
  });
});
