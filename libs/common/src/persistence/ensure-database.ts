import { createConnection, ResultSetHeader } from 'mysql2/promise';
import { readDatabaseUrl } from '../logging/database-url';

/** Database names the migration creates: what DB_URL's pattern accepts (config/database.config.ts). */
const DATABASE_NAME = /^[A-Za-z0-9_$]{1,64}$/;

/**
 * Creates DB_URL's database when it does not exist yet, so the first `npm run migrate` on a new server
 * works (MySQL/MariaDB tables of this service are utf8mb4 with binary comparison). Resolves to the database's
 * name and whether it was created here.
 */
export async function ensureDatabase(dbUrl: string): Promise<{ name: string; created: boolean }> {
  // read as the start-up report prints it, so a password holding `@`, `?` or `#` connects here as in the service
  const url = readDatabaseUrl(dbUrl);
  if (!url) throw new Error('DB_URL must look like mysql://user:pass@host:3306/db');
  const name = url.database;
  if (!DATABASE_NAME.test(name))
    throw new Error(`DB_URL names an invalid database: ${name} (a database name is 1 to 64 of A-Z, a-z, 0-9, _ and $)`);
  const connection = await createConnection({
    host: url.host,
    port: url.port ?? 3306,
    user: url.user,
    password: url.password,
    connectTimeout: 5000,
  });
  try {
    const [result] = await connection.query<ResultSetHeader>(
      `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
    );
    // one row affected when it was created; none (and a warning) when it existed
    return { name, created: result.affectedRows > 0 };
  } finally {
    await connection.end();
  }
}
