// The overload benchmark's services and data: fresh migrated databases, main-service and device-service started
// alone as built processes (default settings plus BENCH_SERVICE_ENV), ~30 snapshots for each of two page tenants,
// a third tenant that saves, and registered devices whose tokens the benchmark signs (as bench:api does).
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { deviceTokenKeys, signDeviceToken } from '../bare/auth.mjs';
import { seedRegistry, seedSnapshots } from '../api/seed.mjs';
import { freePort, startNode } from '../lib/processes.mjs';

export const JWT_SECRET = 'bench-secret-of-at-least-16-chars';
const DEVICE_TOKEN_SECRET = 'bench-device-token-secret-0123456789';
/** pushInfo checks a token against a keyed digest of the stored hash, never the hash itself: any text will do. */
const SECRET_HASH = 'bench-overload-unused-secret-hash';
export const TENANTS = { flood: 'overload-a', quiet: 'overload-b', save: 'overload-save' };
const PAGE_ROWS = 30;
const SERVERS = 10;

const bearerOf = (tenant) =>
  `Bearer ${jwt.sign({ sub: 'bench', tenantId: tenant, roles: ['administrator'] }, JWT_SECRET, { expiresIn: 7200 })}`;

/** The services' environment: the default settings (no log level, metrics, broker or pool size from ours) and `extra`. */
function serviceEnvironment(extra) {
  const env = { ...process.env, JWT_SECRET, DEVICE_TOKEN_SECRET };
  for (const variable of ['LOG_LEVEL', 'METRICS_ENABLED', 'KAFKA_BROKERS', 'DB_POOL_SIZE']) delete env[variable];
  return { ...env, ...extra };
}

/**
 * Makes the databases on `server` (bench/lib/databases.mjs), seeds them and starts both services, pushing each child
 * into `children` at once so that a failure part-way still stops it. Returns the targets, tokens and devices.
 */
export async function setUp({ server, root, children, serviceEnv, serviceArgs, logDir, deviceCount }) {
  const env = serviceEnvironment(serviceEnv);
  const databases = {
    main: await server.migrated('', 'main-service', env),
    device: await server.migrated('_device', 'device-service', env),
  };
  const mainDb = await server.connect(databases.main);
  const deviceDb = await server.connect(databases.device);
  try {
    for (const tenant of [TENANTS.flood, TENANTS.quiet]) await seedSnapshots(mainDb, tenant, PAGE_ROWS);
    const { devices, serverNos } = await seedRegistry(deviceDb, TENANTS.flood, {
      devices: deviceCount,
      servers: SERVERS,
      secretHash: SECRET_HASH,
    });
    const keys = deviceTokenKeys(DEVICE_TOKEN_SECRET);
    for (const device of devices) device.token = signDeviceToken(keys, device, 86_400);

    const targets = {};
    for (const [key, service, database] of [
      ['main', 'main-service', databases.main],
      ['device', 'device-service', databases.device],
    ]) {
      const port = await freePort();
      const child = await startNode(service, [...serviceArgs, join(root, `dist/apps/${service}/src/main.js`)], {
        env: { ...env, PORT: String(port), DB_URL: server.urlOf(database) },
        readyUrl: `http://127.0.0.1:${port}/${service}/health/live`,
        logDir,
      });
      children.push(child);
      targets[key] = { service, port, child, pid: child.pid, live: `/${service}/health/live` };
    }
    const bearers = Object.fromEntries(Object.entries(TENANTS).map(([role, tenant]) => [role, bearerOf(tenant)]));
    return { targets, bearers, devices, serverNos, pageRows: PAGE_ROWS };
  } finally {
    await mainDb.end();
    await deviceDb.end();
  }
}
