import { createConnection } from 'mysql2/promise';

/** Database names the migration creates: what DB_URL's pattern accepts (config/database.config.ts). */
const DATABASE_NAME = /^[A-Za-z0-9_$]{1,64}$/;

/**
 * Creates DB_URL's database when it does not exist yet, so the first `npm run migrate` on a new server
 * works (MySQL/MariaDB tables of this service are utf8mb4 with binary comparison).
 */
export async function ensureDatabase(dbUrl: string): Promise<void> {
  const url = new URL(dbUrl.replace(/^mariadb:/, 'mysql:'));
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!DATABASE_NAME.test(name)) throw new Error(`DB_URL names an invalid database: ${name}`);
  const connection = await createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    connectTimeout: 5000,
  });
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await connection.end();
  }
}
