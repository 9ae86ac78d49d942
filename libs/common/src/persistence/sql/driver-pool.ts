import type { Pool } from 'mysql2';
import type { DataSource } from 'typeorm';
import { isMysqlFamily } from '../upsert-sql';

/** mysql2's pool, as TypeORM's MySQL driver holds it. */
export type DriverPool = Pool;

/** The public `pool` member of TypeORM's MysqlDriver, which its package entry does not export by name. */
interface MysqlDriverPool {
  pool?: DriverPool;
}

/**
 * The mysql2 pool of a MySQL/MariaDB data source (TypeORM's public `MysqlDriver.pool`): where the tables' repeated
 * statements run prepared (run-statement.ts) and the pool metrics listen. Undefined on SQLite, and where the driver
 * holds none (replication's pool cluster, or not connected).
 */
export function driverPool(dataSource: DataSource): DriverPool | undefined {
  return isMysqlFamily(dataSource) ? (dataSource.driver as unknown as MysqlDriverPool).pool : undefined;
}
