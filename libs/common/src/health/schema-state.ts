import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, MigrationInterface } from 'typeorm';

/** How an operator brings a service's database up to date (and creates it): said wherever either is missing. */
export const MIGRATE_HINT =
  "run this service's migrations (npm run migrate or npm run migrate:<service>; in Kubernetes: its migration Job)";

/** How often, at most, the schema is read while it is not (known to be) migrated. */
export const SCHEMA_RECHECK_MS = 1000;

/** The name TypeORM records for an applied migration (its class name unless it names itself). */
const nameOf = (migration: MigrationInterface): string => migration.name ?? migration.constructor.name;

/**
 * Whether the MySQL/MariaDB database holds every migration the service was built with: without them every
 * query fails, so readiness is down and requests are refused (schema-gate.ts) until the migrations run.
 * Once migrated it is never read again (migrations do not go backwards under a running service); until
 * then at most once a second, whoever asks. SQLite's schema is synchronised from the entities: always migrated.
 */
@Injectable()
export class SchemaState implements OnApplicationBootstrap {
  private readonly logger = new Logger('Schema');
  private migrated: boolean;
  private reading?: Promise<number | null>;
  private readAt = 0;
  /** The pending count last logged: each state is logged once, not once per request. */
  private logged?: number;

  constructor(private readonly dataSource: DataSource) {
    this.migrated = !['mysql', 'mariadb'].includes(dataSource.options.type);
  }

  /** Read at start, so an un-migrated database is logged before the first request and a migrated one costs requests nothing. */
  async onApplicationBootstrap(): Promise<void> {
    await this.pending();
  }

  get isMigrated(): boolean {
    return this.migrated;
  }

  /** How many migrations are not applied (0 once migrated); null when the database could not be read. */
  pending(): Promise<number | null> {
    if (this.migrated) return Promise.resolve(0);
    if (!this.reading || Date.now() - this.readAt >= SCHEMA_RECHECK_MS) {
      this.readAt = Date.now();
      this.reading = this.read().then(
        (count) => this.note(count),
        () => null, // an unreachable database is readiness' `database` check, and each request's own 503
      );
    }
    return this.reading;
  }

  private async read(): Promise<number> {
    const table = this.dataSource.options.migrationsTableName ?? 'migrations';
    const expected = this.dataSource.migrations.map(nameOf);
    // not TypeORM's showMigrations: it creates the table
    const runner = this.dataSource.createQueryRunner();
    try {
      if (!(await runner.hasTable(table))) return expected.length;
      const applied = new Set(((await runner.query(`SELECT name FROM \`${table}\``)) as { name: string }[]).map((row) => row.name));
      return expected.filter((name) => !applied.has(name)).length;
    } finally {
      await runner.release();
    }
  }

  private note(count: number): number {
    if (count === 0) {
      this.migrated = true;
      if (this.logged) this.logger.log('database schema migrated: requests are answered again');
    } else if (count !== this.logged) {
      this.logger.warn(`database schema not migrated (${count} migration(s) pending): requests are answered 503; ${MIGRATE_HINT}`);
    }
    this.logged = count;
    return count;
  }
}
