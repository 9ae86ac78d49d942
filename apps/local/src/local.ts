import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { createDeviceService } from '../../device-service/src/main';
import { createMainService } from '../../main-service/src/main';

/**
 * The embedded default of `npm start`: main-service and device-service in one process behind one
 * port (PORT, default 8080), each with its own SQLite file under SQLITE_DIR and its own Nest app.
 * Requests are dispatched by path prefix to the two apps' Express handlers; nothing is proxied.
 */
const DEVICE_PREFIX = '/device-service';

function isDeviceRequest(request: IncomingMessage): boolean {
  const path = (request.url ?? '/').split('?')[0];
  return path === DEVICE_PREFIX || path.startsWith(`${DEVICE_PREFIX}/`);
}

const handler = (app: NestExpressApplication) => app.getHttpAdapter().getInstance() as (req: IncomingMessage, res: ServerResponse) => void;

async function start(): Promise<void> {
  if (process.env.DB_URL) {
    // one process shares one environment, but each service needs its own database and migrations
    Logger.error('DB_URL is set: the combined server is the embedded SQLite default. On MySQL/MariaDB start each service alone with its own DB_URL (npm run start:main-service / start:device-service).', 'Bootstrap');
    process.exit(1);
  }
  process.env.PORT ||= '8080'; // both apps' configs (e.g. the local cloud-service node) see the shared port
  const [main, device] = [await createMainService(), await createDeviceService()];
  await Promise.all([main.init(), device.init()]);
  const [toMain, toDevice] = [handler(main), handler(device)];
  // everything outside /device-service goes to main-service, which answers 404 envelopes outside its own prefix
  const server = createServer((request, response) => (isDeviceRequest(request) ? toDevice : toMain)(request, response));
  const port = Number(process.env.PORT);
  server.listen(port, () =>
    Logger.log(`listening on http://localhost:${port}: /main-service/swagger-ui and /device-service/swagger-ui`, 'Bootstrap'),
  );
  // each app closes its own resources on SIGTERM/SIGINT (shutdown hooks); stop accepting connections first
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => server.close());
}

void start();
