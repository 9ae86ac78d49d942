import { runMigrationsCli } from '@app/common';
import { mainServiceDataSource } from './data-source';

runMigrationsCli('main-service', () => mainServiceDataSource());
