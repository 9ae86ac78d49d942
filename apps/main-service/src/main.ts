import { AppConfig, configureApp } from '@app/common';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule, MAIN_SERVICE } from './app.module';

/** Starts main-service alone (PORT, default 3000) or, from local.ts, as the embedded default (8080). */
export async function bootstrap(defaultPort?: number): Promise<NestExpressApplication> {
  if (defaultPort && !process.env.PORT) process.env.PORT = String(defaultPort);
  const app = configureApp(await NestFactory.create<NestExpressApplication>(AppModule, { bodyParser: false }), MAIN_SERVICE);
  const config = app.get(AppConfig);
  if (config.usesDevJwtSecret) Logger.warn('JWT_SECRET is not set: using the development secret. Never run production like this.', 'Config');
  await app.listen(config.port);
  Logger.log(`main-service listening on http://localhost:${config.port}/${MAIN_SERVICE.prefix} (Swagger UI: /${MAIN_SERVICE.prefix}/swagger-ui)`, 'Bootstrap');
  return app;
}

if (require.main === module) void bootstrap();
