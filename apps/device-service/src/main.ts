import { AppConfig, AppHttpAdapter, configureApp, shutDownOnSignals } from '@app/common';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { AppModule, DEVICE_SERVICE } from './app.module';

/** device-service, configured but not listening (the combined local server mounts it beside main-service). */
export async function createDeviceService(adapter: ExpressAdapter = new AppHttpAdapter()): Promise<NestExpressApplication> {
  const app = configureApp(await NestFactory.create<NestExpressApplication>(AppModule, adapter, { bodyParser: false, bufferLogs: true }), DEVICE_SERVICE);
  const config = app.get(AppConfig);
  if (config.usesDevJwtSecret) Logger.warn('JWT_SECRET is not set: using the development secret. Never run production like this.', 'Config');
  if (config.usesDevDeviceTokenSecret) Logger.warn('DEVICE_TOKEN_SECRET is not set: using the development secret. Never run production like this.', 'Config');
  return app;
}

/** Starts device-service alone on PORT (default 3001), as in Kubernetes. */
async function bootstrap(): Promise<void> {
  const app = await createDeviceService();
  const { port, shutdownTimeoutMs } = app.get(AppConfig);
  await app.listen(port);
  shutDownOnSignals(app.getHttpServer(), [app], shutdownTimeoutMs);
  Logger.log(`device-service listening on http://localhost:${port}/${DEVICE_SERVICE.prefix} (Swagger UI: /${DEVICE_SERVICE.prefix}/swagger-ui)`, 'Bootstrap');
}

if (require.main === module) void bootstrap();
