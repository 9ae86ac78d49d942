import '@app/common/tracing/start-tracing'; // first: the instrumentations patch the libraries before they load
import { createService, startService } from '@app/common';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { DEVICE_SERVICE } from './device-service.manifest';

/** device-service, configured but not listening (the combined local server mounts it beside main-service). */
export const createDeviceService = (adapter?: ExpressAdapter): Promise<NestExpressApplication> =>
  createService(AppModule, DEVICE_SERVICE, adapter);

// alone on PORT (default 3001), as in Kubernetes
if (require.main === module) void startService(AppModule, DEVICE_SERVICE);
