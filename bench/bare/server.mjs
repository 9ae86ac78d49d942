// The bare handler of `npm run bench:api`: node:http + mysql2 doing per request the work of the four
// compared operations of main-service and device-service (credential check, tenant-scoped SQL on the
// services' own migrated databases, envelope, one JSON log line), without a framework. It is the
// reference the services' throughput and latency are compared with (docs/performance.md).
//
//   PORT                   where it listens (127.0.0.1)
//   BARE_PORT              instead of PORT: it runs inside a service's process (`node --import <this file> main.js`),
//                          beside the service, which owns the process (its PORT, its signals)
//   MAIN_DB_URL            main-service's database      DEVICE_DB_URL   device-service's database
//   JWT_SECRET             HS256 secret of Bearer tokens
//   DEVICE_TOKEN_SECRET    secret of device tokens
//   DB_POOL_SIZE           connections per database, as each service has                      default 10
import { createServer } from 'node:http';
import mysql from 'mysql2/promise';
import { bearerCaller, bearerKey, deviceTokenKeys } from './auth.mjs';
import { deviceCaller, pushInfo } from './devices.mjs';
import { answer, begin, readJson, refuse, Refusal } from './http.mjs';
import { getById, page, save } from './snapshots.mjs';

const SNAPSHOTS = '/main-service/main-api/snapshot/device-state-snap';
const SNAPSHOT_PERMISSION = 'snapshot-device-state-snap';
const DEVICES = '/device-service/main-api/device/data-acquisition-device';

const required = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

/** A pool as the services configure theirs (mysql2 under TypeORM). */
const pool = (url) =>
  mysql.createPool({
    uri: url.replace(/^mariadb:/, 'mysql:'),
    charset: 'utf8mb4_bin',
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: false,
    connectionLimit: Number(process.env.DB_POOL_SIZE ?? 10),
    queueLimit: 200,
    connectTimeout: 5000,
    waitForConnections: true,
  });

const mainDb = pool(required('MAIN_DB_URL'));
const deviceDb = pool(required('DEVICE_DB_URL'));
const jwtKey = bearerKey(required('JWT_SECRET'));
const deviceKeys = deviceTokenKeys(required('DEVICE_TOKEN_SECRET'));

const bearer = (req) => {
  const caller = bearerCaller(jwtKey, req.headers.authorization, SNAPSHOT_PERMISSION);
  if (!caller) throw new Refusal(401, 'Unauthorized');
  return caller;
};

/** path → [service, method, handler(req, query, context) → { data, extraData }] */
const ROUTES = new Map([
  [`${SNAPSHOTS}/page`, ['main-service', 'POST', async (req, _q, ctx) => page(mainDb, (ctx.caller = bearer(req)), await readJson(req))]],
  [`${SNAPSHOTS}/getById`, ['main-service', 'GET', async (req, query, ctx) => getById(mainDb, (ctx.caller = bearer(req)), query)]],
  [
    `${SNAPSHOTS}/save`,
    ['main-service', 'POST', async (req, _q, ctx) => save(mainDb, (ctx.caller = bearer(req)), await readJson(req), ctx.id)],
  ],
  [
    `${DEVICES}/pushInfoByDataAcquisitionDeviceNo`,
    [
      'device-service',
      'POST',
      async (req, query, ctx) => {
        ctx.caller = await deviceCaller(deviceDb, deviceKeys, query);
        return pushInfo(deviceDb, ctx.caller, await readJson(req));
      },
    ],
  ],
]);

async function handle(req, res) {
  const context = begin(req, res);
  const mark = req.url.indexOf('?');
  const path = mark < 0 ? req.url : req.url.slice(0, mark);
  const route = ROUTES.get(path);
  const service = route?.[0] ?? 'bare';
  try {
    if (path === '/health') return answer(service, req, res, context, { status: 'up' });
    if (!route || route[1] !== req.method) throw new Refusal(404, `Cannot ${req.method} ${path}`);
    context.route = path;
    const { data, extraData } = await route[2](req, new URLSearchParams(mark < 0 ? '' : req.url.slice(mark + 1)), context);
    answer(service, req, res, context, data, extraData);
  } catch (error) {
    refuse(service, req, res, context, error);
  }
}

const alongside = Boolean(process.env.BARE_PORT);
const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => void handle(req, res));
server.listen(Number(alongside ? process.env.BARE_PORT : required('PORT')), '127.0.0.1');

const stop = () => {
  // beside a service, the service ends the process once its own shutdown is done
  server.close(() => Promise.all([mainDb.end(), deviceDb.end()]).then(() => alongside || process.exit(0)));
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
