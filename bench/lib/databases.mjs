// A benchmark's throw-away databases on DB_URL's server, as bench:api makes them: `<name>_<time>` plus suffixes,
// each created empty and migrated by its service's built migrate.js, all dropped at the end (or kept to inspect).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import mysql from 'mysql2/promise';

/** The server of `baseUrl` (mysql:// or mariadb://); databases are named after its path and the time. */
export async function benchServer(baseUrl, root) {
  const url = new URL(baseUrl.replace(/^mariadb:/, 'mysql:'));
  const stem = `${url.pathname.slice(1) || 'bench'}_${Date.now().toString(36)}`;
  const connect = (database) =>
    mysql.createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database,
    });
  const urlOf = (database) => `mysql://${url.username}${url.password ? `:${url.password}` : ''}@${url.host}/${database}`;
  const admin = await connect();
  const created = [];
  return {
    admin,
    connect,
    urlOf,
    created,
    /** Creates `<stem><suffix>` and runs `service`'s migrations on it; returns its name. */
    async migrated(suffix, service, env) {
      const database = `${stem}${suffix}`;
      await admin.query(`CREATE DATABASE \`${database}\``);
      created.push(database);
      execFileSync(process.execPath, [join(root, `dist/apps/${service}/src/migrate.js`)], {
        env: { ...env, DB_URL: urlOf(database) },
        stdio: 'ignore',
        timeout: 180_000,
      });
      return database;
    },
    /** Drops what it created unless `keep`, then closes the admin connection. */
    async close(keep) {
      if (keep) console.log(`kept databases ${created.join(' and ')}`);
      else for (const database of created) await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await admin.end();
    },
  };
}
