import { AppConfig, AppHttpAdapter, configureApp, shutDownOnSignals } from '@app/common';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { AppModule, MAIN_SERVICE } from './app.module';

/** main-service, configured but not listening (the combined local server mounts it beside device-service). */
export async function createMainService(adapter: ExpressAdapter = new AppHttpAdapter()): Promise<NestExpressApplication> {
  const app = configureApp(await NestFactory.create<NestExpressApplication>(AppModule, adapter, { bodyParser: false, bufferLogs: true }), MAIN_SERVICE);
  if (app.get(AppConfig).usesDevJwtSecret) Logger.warn('JWT_SECRET is not set: using the development secret. Never run production like this.', 'Config');
  return app;
}

/** Starts main-service alone on PORT (default 3000), as in Kubernetes. */
async function bootstrap(): Promise<void> {
  const app = await createMainService();
  const { port, shutdownTimeoutMs } = app.get(AppConfig);
  await app.listen(port);
  shutDownOnSignals(app.getHttpServer(), [app], shutdownTimeoutMs);
  Logger.log(`main-service listening on http://localhost:${port}/${MAIN_SERVICE.prefix} (Swagger UI: /${MAIN_SERVICE.prefix}/swagger-ui)`, 'Bootstrap');
}

if (require.main === module) void bootstrap();
