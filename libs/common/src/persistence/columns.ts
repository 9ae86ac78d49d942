import { ValueTransformer } from 'typeorm';

/** Epoch milliseconds are BIGINT in the database and numbers in JSON (mysql2 returns strings). */
export const epochMillis: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? null : Number(value)),
};

/**
 * `delete_time` stores 0 while live so a unique index over (tenant, key, delete_time) blocks live
 * duplicates on MySQL and SQLite alike; the API shows that live sentinel as null.
 */
export const LIVE = 0;
export const deleteTimeColumn: ValueTransformer = {
  to: (value: number | null | undefined) => value ?? LIVE,
  from: (value: string | number | null) => (value === null || Number(value) === LIVE ? null : Number(value)),
};
