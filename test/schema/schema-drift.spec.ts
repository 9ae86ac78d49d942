import 'reflect-metadata';
import { AppConfig } from '@app/common';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { mainServiceDataSource } from '../../apps/main-service/src/data-source';
import { createTestDatabase, TestDatabase, usingMysql } from '../support/database';

/**
 * The checked-in MySQL migrations must build exactly the schema the entities describe: after
 * running them, TypeORM finds nothing to change. Runs on the MySQL/MariaDB leg (DB_URL set).
 */
const onMysql = usingMysql() ? describe : describe.skip;

onMysql('main-service migrations', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    const url = new URL(database.env.DB_URL.replace(/^mariadb:/, 'mysql:'));
    const probe = await createConnection({ host: url.hostname, port: Number(url.port || 3306), user: url.username, password: decodeURIComponent(url.password) });
    const [[{ version }]] = (await probe.query('SELECT VERSION() AS version')) as unknown as [[{ version: string }]];
    await probe.end();
    // TypeORM reads MariaDB's information_schema correctly only in its 'mariadb' dialect
    const dbUrl = /mariadb/i.test(version) ? database.env.DB_URL.replace(/^mysql:/, 'mariadb:') : database.env.DB_URL;
    dataSource = await mainServiceDataSource(new AppConfig({ DB_URL: dbUrl }, { port: 0 })).initialize();
    await dataSource.runMigrations();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('leave nothing for the entities to change', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('create every entity table with a binary (exact, case-sensitive) collation', async () => {
    const tables: { name: string; collation: string }[] = await dataSource.query(
      'SELECT table_name AS name, table_collation AS collation FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name <> ?',
      ['schema_migrations'],
    );
    const entityTables = dataSource.entityMetadatas.map((m) => m.tableName).sort();
    expect(tables.map((t) => t.name).sort()).toEqual(entityTables);
    for (const t of tables) expect(`${t.name}: ${t.collation}`).toBe(`${t.name}: utf8mb4_bin`);
  });

  it('are recorded, so a second run applies nothing', async () => {
    expect(await dataSource.runMigrations()).toEqual([]);
  });
});
