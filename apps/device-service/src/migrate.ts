import { migrateService } from '@app/common';
import { DEVICE_SERVICE } from './device-service.manifest';

migrateService(DEVICE_SERVICE);
