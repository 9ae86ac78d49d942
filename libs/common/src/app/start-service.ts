import { Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { StartupWarnings } from '../config/environment';
import { ServerConfig } from '../config/server.config';
import { namespacesOf } from '../config/service-config.module';
import { configureApp } from '../http/bootstrap';
import { AppHttpAdapter } from '../http/server';
import { shutDownOnSignals } from '../http/shutdown';
import type { ServiceManifest } from './service-manifest';

const warns = (config: object): config is StartupWarnings => typeof (config as Partial<StartupWarnings>).startupWarnings === 'function';

/** A service's app, configured but not listening (the combined local server mounts it beside the other). */
export async function createService(
  appModule: Type<unknown>,
  manifest: ServiceManifest,
  adapter: ExpressAdapter = new AppHttpAdapter(),
): Promise<NestExpressApplication> {
  const app = configureApp(
    await NestFactory.create<NestExpressApplication>(appModule, adapter, { bodyParser: false, bufferLogs: true }),
    manifest,
  );
  for (const type of namespacesOf(manifest)) {
    const config = app.get(type);
    if (warns(config)) for (const warning of config.startupWarnings()) Logger.warn(warning, 'Config');
  }
  return app;
}

/** Starts a service alone on PORT (default: its manifest's), as in Kubernetes. */
export async function startService(appModule: Type<unknown>, manifest: ServiceManifest): Promise<void> {
  const app = await createService(appModule, manifest);
  const { port, shutdownTimeoutMs } = app.get(ServerConfig);
  await app.listen(port);
  shutDownOnSignals(app.getHttpServer(), [app], shutdownTimeoutMs);
  Logger.log(
    `${manifest.name} listening on http://localhost:${port}/${manifest.prefix} (Swagger UI: /${manifest.prefix}/swagger-ui)`,
    'Bootstrap',
  );
}
