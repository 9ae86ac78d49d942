import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AppLogging, createHttpServer, limitRequestTime, NestLines, ServerConfig, stopListening } from '@app/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DEVICE_SERVICE } from '../../device-service/src/device-service.manifest';
import { createDeviceService } from '../../device-service/src/main';
import { createMainService } from '../../main-service/src/main';

const DEVICE_PREFIX = `/${DEVICE_SERVICE.prefix}`;

function isDeviceRequest(request: IncomingMessage): boolean {
  const path = (request.url ?? '/').split('?')[0];
  return path === DEVICE_PREFIX || path.startsWith(`${DEVICE_PREFIX}/`);
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
const handler = (app: NestExpressApplication) => app.getHttpAdapter().getInstance() as Handler;

export interface CombinedServer {
  /** Not listening yet. */
  server: Server;
  /** The two apps (main-service, device-service), initialised. */
  apps: NestExpressApplication[];
  close(): Promise<void>;
}

/**
 * main-service and device-service in one process behind one HTTP server: each is its own Nest app on
 * its own Express instance (own body parsers, own 404 envelope outside its prefix, own OpenAPI), and
 * requests are dispatched by path prefix to the two Express handlers; nothing is proxied. Everything
 * outside /device-service goes to main-service, which answers 404 envelopes outside its own prefix.
 */
export async function createCombinedServer(): Promise<CombinedServer> {
  // one after the other: Nest's logger is one per process, and each app's start-up lines name its own service
  const main = await createMainService();
  await main.init();
  const device = await createDeviceService();
  await device.init();
  // lines written outside a request (background work: delivery, outbox relay, all main-service's) name main-service
  main.useLogger(new NestLines(main.get(AppLogging).logger));
  const [toMain, toDevice] = [handler(main), handler(device)];
  const server = createHttpServer((request, response) => (isDeviceRequest(request) ? toDevice : toMain)(request, response));
  limitRequestTime(server, main.get(ServerConfig).requestTimeoutMs);
  return {
    server,
    apps: [main, device],
    close: async () => {
      if (server.listening) await stopListening(server);
      await Promise.all([main.close(), device.close()]);
    },
  };
}
