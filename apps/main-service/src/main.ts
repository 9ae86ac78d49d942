import '@app/common/tracing/start-tracing'; // first: the instrumentations patch the libraries before they load
import { createService, startService } from '@app/common';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { MAIN_SERVICE } from './main-service.manifest';

/** main-service, configured but not listening (the combined local server mounts it beside device-service). */
export const createMainService = (adapter?: ExpressAdapter): Promise<NestExpressApplication> =>
  createService(AppModule, MAIN_SERVICE, adapter);

// alone on PORT (default 3000), as in Kubernetes
if (require.main === module) void startService(AppModule, MAIN_SERVICE);
