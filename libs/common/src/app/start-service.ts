import { Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { checkConfig, StartupWarnings } from '../config/environment';
import { ServerConfig } from '../config/server.config';
import { configProblems, namespacesOf } from '../config/service-config.module';
import { configureApp } from '../http/bootstrap';
import { AppHttpAdapter } from '../http/server';
import { shutDownOnSignals } from '../http/shutdown';
import { AppLogging } from '../logging/app-logging';
import { NestLines } from '../logging/nest-lines';
import type { ServiceManifest } from './service-manifest';
import { failStartup, StartupFailure } from './startup-failure';

const warns = (config: object): config is StartupWarnings => typeof (config as Partial<StartupWarnings>).startupWarnings === 'function';

/**
 * Every namespace of the service checked at once, before anything starts, so one report names every bad
 * variable; returns the server namespace (the logger's level before the app exists).
 */
function checkedServerConfig(manifest: ServiceManifest): ServerConfig {
  const problems = configProblems(manifest, process.env);
  if (problems.length) throw new StartupFailure('Invalid configuration', problems);
  return checkConfig(ServerConfig, process.env, { PORT: String(manifest.defaultPort) }).config;
}

/** A service's app, configured but not listening (the combined local server mounts it beside the other). */
export async function createService(
  appModule: Type<unknown>,
  manifest: ServiceManifest,
  adapter: ExpressAdapter = new AppHttpAdapter(),
): Promise<NestExpressApplication> {
  // the lines written while the app is made name this service, also when another app shares the process
  const logger = new NestLines(new AppLogging(checkedServerConfig(manifest), manifest).logger);
  // abortOnError false: a failure is thrown to the caller, which explains it (startup-failure.ts)
  const app = configureApp(
    await NestFactory.create<NestExpressApplication>(appModule, adapter, { bodyParser: false, logger, abortOnError: false }),
    manifest,
  );
  for (const type of namespacesOf(manifest)) {
    const config = app.get(type);
    if (warns(config)) for (const warning of config.startupWarnings()) Logger.warn(warning, 'Config');
  }
  return app;
}

/** Starts a service alone on PORT (default: its manifest's), as in Kubernetes; a failure to start is explained, then exit 1. */
export async function startService(appModule: Type<unknown>, manifest: ServiceManifest): Promise<void> {
  try {
    const app = await createService(appModule, manifest);
    const { port, shutdownTimeoutMs } = app.get(ServerConfig);
    await app.listen(port);
    shutDownOnSignals(app.getHttpServer(), [app], shutdownTimeoutMs);
    Logger.log(
      `${manifest.name} listening on http://localhost:${port}/${manifest.prefix} (Swagger UI: /${manifest.prefix}/swagger-ui)`,
      'Bootstrap',
    );
  } catch (error) {
    failStartup(manifest.name, error);
  }
}
