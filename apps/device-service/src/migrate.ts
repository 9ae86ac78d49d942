import { runMigrationsCli } from '@app/common';
import { deviceServiceDataSource } from './data-source';

runMigrationsCli('device-service', () => deviceServiceDataSource());
