import 'reflect-metadata';
import { DatabaseConfig, serviceDataSource } from '@app/common';
import { DataSource } from 'typeorm';
import { MAIN_SERVICE } from './main-service.manifest';

/** The main-service schema (the app builds the same in CommonModule). */
export const mainServiceDataSource = (database?: DatabaseConfig): DataSource => serviceDataSource(MAIN_SERVICE, database);

/** For the TypeORM CLI (`typeorm migration:generate -d dist/apps/main-service/src/data-source.js`). */
export default mainServiceDataSource();
