import 'reflect-metadata';
import { AppConfig, COMMON_ENTITIES, dataSourceOptions } from '@app/common';
import { DataSource } from 'typeorm';
import { DEVICE_ENTITIES } from './device.entities';
import { MIGRATIONS } from './migrations';

/** The device-service schema (its own SQLite file / MySQL database): the app, `migrate` and the TypeORM CLI build it here. */
export function deviceServiceDataSource(config = new AppConfig(process.env, { port: 3001 })): DataSource {
  return new DataSource(dataSourceOptions(config, { name: 'device-service', entities: [...DEVICE_ENTITIES, ...COMMON_ENTITIES], migrations: MIGRATIONS }));
}

/** For the TypeORM CLI (`typeorm migration:generate -d dist/apps/device-service/src/data-source.js`). */
export default deviceServiceDataSource();
