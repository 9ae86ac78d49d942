/**
 * The checked-in MySQL/MariaDB migrations build exactly the schema the entities describe, with exact
 * (case-sensitive) keys (contract.md "Records", docs/decisions.md "Storage"), on a data source without the
 * services' statement deadline.
 * MySQL/MariaDB only: on the SQLite leg (no DB_URL) the tests are reported as skipped.
 */
import {
  BOOKKEEPING_COLUMNS,
  countedFilterColumns,
  DatabaseConfig,
  filterColumnsCountedBy,
  deletedCountTriggerNames,
  insertTriggerName,
  liveCountTriggerNames,
  readConfig,
} from '@app/common';
import { DataSource, EntityMetadata } from 'typeorm';
import type * as DeviceDataSourceModule from '../../apps/device-service/src/data-source';
import type * as MainDataSourceModule from '../../apps/main-service/src/data-source';
import { createTestDatabase, serverConnection, TestDatabase, usingMysql } from '../support/database';

/** Each service has its own database and migrations (contract.md "Services and groups"). */
interface ServiceSchema {
  service: string;
  dataSource: (config: DatabaseConfig) => DataSource;
  /** Tables that must have a business key (a `uk_` unique index). */
  keyedTable: (table: string) => boolean;
  /** Whether its record tables count their deleted rows (the recycle bin's total). */
  recycleBin: boolean;
}

// data-source.ts builds a default DataSource from process.env at import: keep that one in memory
const load = <T>(path: string): T => {
  process.env.SQLITE_DIR ??= ':memory:';
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only after SQLITE_DIR is set
  return require(path) as T;
};

const MESSAGE_KEYED_TABLES = [
  'message_email_template',
  'message_email_template_email_config',
  'message_notification_template',
  'message_notification_template_notification_config',
  'message_notification_user',
  'message_sms_template',
  'message_sms_template_sms_config',
];

const SERVICES: ServiceSchema[] = [
  {
    service: 'main-service',
    dataSource: (config) => load<typeof MainDataSourceModule>('../../apps/main-service/src/data-source').mainServiceDataSource(config),
    // configuration records, and the message templates (code), template-configuration links and per-user notifications (docs/messages.md)
    keyedTable: (table) => table.startsWith('configuration_') || MESSAGE_KEYED_TABLES.includes(table),
    recycleBin: true,
  },
  {
    service: 'device-service',
    dataSource: (config) =>
      load<typeof DeviceDataSourceModule>('../../apps/device-service/src/data-source').deviceServiceDataSource(config),
    // the registry; binding lifecycles are an append-only history without a business key
    keyedTable: (table) => table.startsWith('device_data_acquisition_'),
    // no recycle bin: restoring a registry record would revive the credentials its deletion revoked
    recycleBin: false,
  },
];

const mysqlIt = usingMysql() ? it : it.skip;

/** DB_STATEMENT_TIMEOUT_MS given to the migrations' configuration: its lower bound. */
const SERVICE_DEADLINE_MS = 100;

async function serverIsMariaDb(): Promise<boolean> {
  const connection = await serverConnection();
  try {
    const [rows] = await connection.query('SELECT VERSION() AS version');
    return /mariadb/i.test(String((rows as { version: string }[])[0].version));
  } finally {
    await connection.end();
  }
}

describe.each(SERVICES)('MySQL/MariaDB migrations of $service', ({ dataSource: serviceDataSource, keyedTable, recycleBin }) => {
  let database: TestDatabase | undefined;
  let dataSource: DataSource | undefined;

  beforeAll(async () => {
    if (!usingMysql()) return;
    database = await createTestDatabase();
    const mariaDb = await serverIsMariaDb();
    // TypeORM reads MariaDB column metadata correctly only with type `mariadb`; the app accepts `mariadb://`
    const dbUrl = database.env.DB_URL.replace(/^(mysql|mariadb):/, mariaDb ? 'mariadb:' : 'mysql:');
    // the shortest statement deadline the services accept: the migrations' data source must not take it
    const config = readConfig(DatabaseConfig, {
      DB_URL: dbUrl,
      SQLITE_DIR: ':memory:',
      DB_STATEMENT_TIMEOUT_MS: String(SERVICE_DEADLINE_MS),
    });
    expect(config.dbUrl).toBe(dbUrl);
    dataSource = await serviceDataSource(config).initialize();
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  mysqlIt('a fresh database takes every checked-in migration', async () => {
    const applied = await dataSource!.runMigrations({ transaction: 'each' });
    expect(applied.length).toBe(dataSource!.migrations.length);
    expect(applied.length).toBeGreaterThan(0);
    expect(await dataSource!.showMigrations()).toBe(false);
  });

  mysqlIt("runs without the services' statement deadline (DB_STATEMENT_TIMEOUT_MS): a statement runs past it to its end", async () => {
    const seconds = (SERVICE_DEADLINE_MS * 3) / 1000;
    const started = Date.now();
    expect(await dataSource!.query(`SELECT 1 AS one FROM (SELECT 1 AS x) AS t WHERE SLEEP(${seconds}) = 0`)).toEqual([{ one: 1 }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SERVICE_DEADLINE_MS * 3 - 50);
  });

  mysqlIt('entities and migrations agree: the schema builder has nothing to change', async () => {
    const log = await dataSource!.driver.createSchemaBuilder().log();
    expect(log.upQueries.map((q) => q.query)).toEqual([]);
  });

  mysqlIt('every entity has its table', async () => {
    const runner = dataSource!.createQueryRunner();
    try {
      for (const meta of dataSource!.entityMetadatas)
        expect({ table: meta.tableName, exists: await runner.hasTable(meta.tableName) }).toEqual({ table: meta.tableName, exists: true });
    } finally {
      await runner.release();
    }
  });

  mysqlIt('the last migration can be undone and applied again, to the same schema', async () => {
    await dataSource!.undoLastMigration({ transaction: 'each' });
    expect(await dataSource!.showMigrations()).toBe(true);
    await dataSource!.runMigrations({ transaction: 'each' });
    const log = await dataSource!.driver.createSchemaBuilder().log();
    expect(log.upQueries.map((q) => q.query)).toEqual([]);
  });

  mysqlIt("every record table has its live-count triggers (a new resource's migration calls createLiveCountTriggers)", async () => {
    const triggers: { name: string }[] = await dataSource!.query(
      `SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()`,
    );
    const present = new Set(triggers.map((t) => t.name));
    const records = dataSource!.entityMetadatas.filter(
      (meta) => meta.findColumnWithPropertyName('deleteTime') && meta.findColumnWithPropertyName('tenantId'),
    );
    expect(records.length).toBeGreaterThan(0);
    const missing = records.flatMap((meta) => liveCountTriggerNames(meta.tableName).filter((name) => !present.has(name)));
    expect(missing).toEqual([]);
  });

  mysqlIt(
    'every record table of a service with a recycle bin counts its deleted rows (its migration calls createDeletedCountTriggers)',
    async () => {
      const triggers: { name: string }[] = await dataSource!.query(
        `SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()`,
      );
      const present = new Set(triggers.map((t) => t.name));
      const records = dataSource!.entityMetadatas.filter(
        (meta) => meta.findColumnWithPropertyName('deleteTime') && meta.findColumnWithPropertyName('tenantId'),
      );
      const counted = records.filter((meta) => deletedCountTriggerNames(meta.tableName).every((name) => present.has(name)));
      expect(counted.map((meta) => meta.tableName)).toEqual(recycleBin ? records.map((meta) => meta.tableName) : []);
    },
  );

  mysqlIt(
    "each record table's history triggers record every column it has (a migration adding one calls createHistoryTriggers)",
    async () => {
      const triggers: { name: string; statement: string }[] = await dataSource!.query(
        `SELECT TRIGGER_NAME AS name, ACTION_STATEMENT AS statement FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()`,
      );
      const statements = new Map(triggers.map((t) => [t.name, t.statement]));
      const records = dataSource!.entityMetadatas.filter(
        (meta) => meta.findColumnWithPropertyName('deleteTime') && meta.findColumnWithPropertyName('tenantId'),
      );
      // the update trigger compares each column of the record (what it holds, not its bookkeeping)
      const unrecorded = records.flatMap((meta) => {
        const update = statements.get(`${meta.tableName}_rh_upd`);
        if (!update) return recycleBin ? [`${meta.tableName}: no history triggers`] : [];
        return meta.columns
          .filter((column) => !column.isPrimary && !BOOKKEEPING_COLUMNS.includes(column.databaseName))
          .filter((column) => !update.includes(`\`${column.databaseName}\``))
          .map((column) => `${meta.tableName}.${column.databaseName}`);
      });
      expect(unrecorded).toEqual([]);
    },
  );

  mysqlIt("each record table's triggers count the exact filters its resources declare (its migration lists them)", async () => {
    const triggers: { name: string; statement: string }[] = await dataSource!.query(
      `SELECT TRIGGER_NAME AS name, ACTION_STATEMENT AS statement FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()`,
    );
    const statements = new Map(triggers.map((t) => [t.name, t.statement]));
    const records = dataSource!.entityMetadatas.filter(
      (meta) => meta.findColumnWithPropertyName('deleteTime') && meta.findColumnWithPropertyName('tenantId'),
    );
    const counted = (columns: string[]) => [...columns].sort();
    const listed = records.map((meta) => [
      meta.tableName,
      counted(filterColumnsCountedBy(statements.get(insertTriggerName(meta.tableName)) ?? '')),
    ]);
    const declared = records.map((meta) => [meta.tableName, counted(countedFilterColumns(meta))]);
    expect(listed).toEqual(declared);
    expect(declared.some(([, columns]) => columns.length > 0)).toBe(true);
  });

  mysqlIt('every table has an entity: no migration leaves a table the service does not use', async () => {
    const tables: { name: string }[] = await dataSource!.query(
      `SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> 'schema_migrations'`,
    );
    const entities = new Set(dataSource!.entityMetadatas.map((meta) => meta.tableName));
    expect(tables.map((t) => t.name).filter((name) => !entities.has(name))).toEqual([]);
  });

  mysqlIt('every text column has a binary (exact, case-sensitive) collation', async () => {
    const columns: { table: string; column: string; collation: string }[] = await dataSource!.query(
      `SELECT TABLE_NAME AS \`table\`, COLUMN_NAME AS \`column\`, COLLATION_NAME AS collation FROM information_schema.COLUMNS
       WHERE TABLE_SCHEMA = DATABASE() AND COLLATION_NAME IS NOT NULL AND TABLE_NAME <> 'schema_migrations'`,
    );
    expect(columns.length).toBeGreaterThan(0);
    expect(columns.filter((c) => !/_bin$/.test(c.collation))).toEqual([]);
  });

  /** A row with every required column of the entity, keyed by `seed` in each key column. */
  function row(meta: EntityMetadata, keyColumns: string[], seed: string, id: string): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const column of meta.columns) {
      if (column.isNullable || column.default !== undefined || column.isGenerated) continue;
      values[column.propertyName] = column.type === 'int' ? 1 : column.type === 'bigint' ? 1_700_000_000_000 : 'x';
    }
    values.tenantId = 'tenant-a';
    values[meta.primaryColumns.find((c) => c.propertyName !== 'tenantId')!.propertyName] = id;
    for (const key of keyColumns) values[key] = `${key}-${seed}`;
    return values;
  }

  const keyed = () =>
    dataSource!.entityMetadatas
      .map((meta) => ({ meta, index: meta.indices.find((i) => i.isUnique && i.name?.startsWith('uk_')) }))
      .filter((x): x is { meta: EntityMetadata; index: NonNullable<typeof x.index> } => !!x.index);

  mysqlIt('every business table has a unique key', () => {
    const expected = dataSource!.entityMetadatas
      .map((m) => m.tableName)
      .filter(keyedTable)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(
      keyed()
        .map((k) => k.meta.tableName)
        .sort(),
    ).toEqual(expected);
  });

  mysqlIt('key columns are case-sensitive: keys differing only by case are both accepted in one tenant', async () => {
    for (const { meta, index } of keyed()) {
      const keyColumns = index.columns.map((c) => c.propertyName).filter((p) => p !== 'tenantId' && p !== 'deleteTime');
      expect(keyColumns.length).toBeGreaterThan(0);
      const repository = dataSource!.getRepository(meta.target);
      await repository.insert(row(meta, keyColumns, 'casekey', 'lowerCase'));
      // the same key again in the same case must collide (the index exists and is unique) ...
      await expect(repository.insert(row(meta, keyColumns, 'casekey', 'sameCaseAgain'))).rejects.toMatchObject({
        driverError: { code: 'ER_DUP_ENTRY' },
      });
      // ... while each key column differing only by case is a different key
      for (const [i, key] of keyColumns.entries()) {
        const upper = row(meta, keyColumns, 'casekey', `upper${i}`);
        upper[key] = String(upper[key]).toUpperCase();
        await expect(repository.insert(upper)).resolves.toBeDefined();
      }
      expect({ table: meta.tableName, rows: await repository.count() }).toEqual({ table: meta.tableName, rows: 1 + keyColumns.length });
      // and an exact filter tells them apart
      const [first] = keyColumns;
      expect({ table: meta.tableName, matches: await repository.countBy({ [first]: `${first}-casekey` }) }).toEqual({
        table: meta.tableName,
        matches: keyColumns.length,
      });
      expect({ table: meta.tableName, matches: await repository.countBy({ [first]: `${first}-casekey`.toUpperCase() }) }).toEqual({
        table: meta.tableName,
        matches: 1,
      });
    }
  });
});
