import '@app/common/tracing/start-tracing'; // first: the instrumentations patch the libraries before they load
import { failStartup, listenWide, ServerConfig, shutDownOnSignals, StartupFailure } from '@app/common';
import { Logger } from '@nestjs/common';
import { DEVICE_SERVICE } from '../../device-service/src/device-service.manifest';
import { MAIN_SERVICE } from '../../main-service/src/main-service.manifest';
import { createCombinedServer } from './combined-server';

/**
 * The embedded default of `npm start`: both services behind one port (PORT, default 8080), each with
 * its own SQLite file under SQLITE_DIR, in-process message bus.
 */
async function start(): Promise<void> {
  if (process.env.DB_URL)
    // one process shares one environment, but each service needs its own database and migrations
    throw new StartupFailure(
      'DB_URL is set: the combined server is the embedded SQLite default. On MySQL/MariaDB start each service alone with its own DB_URL (npm run start:main-service / start:device-service).',
    );
  process.env.PORT ||= '8080'; // both apps' configs (e.g. the local cloud-service node) see the shared port
  const { server, apps } = await createCombinedServer();
  const { port, shutdownTimeoutMs } = apps[0].get(ServerConfig);
  const swaggerUis = [MAIN_SERVICE, DEVICE_SERVICE].map((service) => `/${service.prefix}/swagger-ui`).join(' and ');
  await new Promise<void>((listening, failed) => listenWide(server.once('error', failed), port, undefined, listening));
  Logger.log(`listening on http://localhost:${port}: ${swaggerUis}`, 'Bootstrap');
  // one server for both apps: drained once, then both apps closed
  shutDownOnSignals(server, apps, shutdownTimeoutMs);
}

start().catch((error: unknown) => failStartup('back-office', error));
