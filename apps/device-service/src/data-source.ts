import 'reflect-metadata';
import { DatabaseConfig, serviceDataSource } from '@app/common';
import { DataSource } from 'typeorm';
import { DEVICE_SERVICE } from './device-service.manifest';

/** The device-service schema, its own SQLite file / MySQL database (the app builds the same in CommonModule). */
export const deviceServiceDataSource = (database?: DatabaseConfig): DataSource => serviceDataSource(DEVICE_SERVICE, database);

/** For the TypeORM CLI (`typeorm migration:generate -d dist/apps/device-service/src/data-source.js`). */
export default deviceServiceDataSource();
