import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { Env } from './environment';

/** Where a service keeps its records: MySQL/MariaDB when DB_URL is set, else embedded SQLite files. */
export class DatabaseConfig {
  static readonly namespace = 'database';

  @Env('DB_URL')
  @IsOptional()
  @IsString()
  @Matches(/^(mysql|mariadb):\/\/[^/]+\/[A-Za-z0-9_$]+(\?.*)?$/, {
    message: 'must look like mysql://user:pass@host:3306/db, the database name 1 to 64 of A-Z, a-z, 0-9, _ and $',
  })
  dbUrl?: string;
  /**
   * The nodes of a MariaDB Galera cluster, `host:port` comma-separated (at most 16); DB_URL's host is one of them, used
   * while it is ready. With it the service connects only to ready nodes (persistence/galera-nodes.ts).
   */
  @Env('DB_HOSTS')
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,253}:\d{1,5}(,[A-Za-z0-9._-]{1,253}:\d{1,5}){0,15}$/, {
    message: 'must look like db1:3306,db2:3306,db3:3306 (1 to 16 host:port pairs)',
  })
  dbHosts?: string;
  /** Folder of the SQLite files (`:memory:` allowed). */
  @Env('SQLITE_DIR') @IsString() sqliteDir = './data';
  @Env('DB_POOL_SIZE') @Type(() => Number) @IsInt() @Min(1) @Max(100) dbPoolSize = 10;
  /**
   * Longest time one statement of the service may run on MySQL/MariaDB before the server stops it (its request gets
   * 503; MySQL stops only SELECTs); the migrations run without it (persistence/statement-deadline.ts). 30 s: below
   * HTTP_REQUEST_TIMEOUT_MS (90 s) and the gateways' 120 s wait for an answer, so the caller gets the 503 rather than
   * a 504 while the statement runs on and holds its pool connection, with room for the request's other statements;
   * and far above what a statement of the service needs, since the paths that touch many rows go in bounded batches
   * (writes of at most 250 rows, retention's deletes of at most 10,000, the outbox prune's of 100).
   */
  @Env('DB_STATEMENT_TIMEOUT_MS') @Type(() => Number) @IsInt() @Min(100) @Max(600_000) dbStatementTimeoutMs = 30_000;
}
