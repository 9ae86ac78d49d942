import 'reflect-metadata';
import { AppConfig, COMMON_ENTITIES, dataSourceOptions } from '@app/common';
import { DataSource } from 'typeorm';
import { CONFIGURATION_ENTITIES } from './configuration/configuration.resources';
import { MIGRATIONS } from './migrations';
import { MESSAGE_ENTITIES } from './message/message.resources';
import { SNAPSHOT_ENTITIES } from './snapshot/snapshot.resources';

/** The main-service schema: the app, `npm run migrate` and the TypeORM CLI all build it here. */
export function mainServiceDataSource(config = new AppConfig(process.env, { port: 3000 })): DataSource {
  return new DataSource(
    dataSourceOptions(config, { name: 'main-service', entities: [...CONFIGURATION_ENTITIES, ...MESSAGE_ENTITIES, ...SNAPSHOT_ENTITIES, ...COMMON_ENTITIES], migrations: MIGRATIONS }),
  );
}

/** For the TypeORM CLI (`typeorm migration:generate -d dist/apps/main-service/src/data-source.js`). */
export default mainServiceDataSource();
