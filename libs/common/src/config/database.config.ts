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
  /** Folder of the SQLite files (`:memory:` allowed). */
  @Env('SQLITE_DIR') @IsString() sqliteDir = './data';
  @Env('DB_POOL_SIZE') @Type(() => Number) @IsInt() @Min(1) @Max(100) dbPoolSize = 10;
}
