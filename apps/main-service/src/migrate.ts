import { migrateService } from '@app/common';
import { MAIN_SERVICE } from './main-service.manifest';

migrateService(MAIN_SERVICE);
