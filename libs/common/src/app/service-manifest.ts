import type { ConfiguredService } from '../config/service-config.module';
import type { LoggedService } from '../logging/app-logging';
import type { ShippedTexts } from '../i18n/catalogues';
import type { ServiceDescription } from '../openapi/setup';
import type { EntityClass, MigrationClass } from '../persistence/database';

/**
 * One service as its entry points know it: the app module, main.ts, the data source (TypeORM CLI and
 * `npm run migrate*`), the combined local server and the test harness all read it, nothing repeats it.
 * Besides its OpenAPI description (prefix, title, security schemes), its configuration (default port, own
 * namespaces) and its logging (credential query parameters):
 */
export interface ServiceManifest extends ServiceDescription, ConfiguredService, LoggedService {
  /** Logs, Kafka client id and consumer groups, the SQLite file name. */
  name: string;
  /** Its own tables (the shared library adds its outbox, import batches and the like). */
  entities: EntityClass[];
  /** Its MySQL/MariaDB migrations with the library's it applies (mergeMigrations), in order (SQLite is created from the entities). */
  migrations: MigrationClass[];
  /** Its own error texts and record titles in the shipped languages (added to the library's at start). */
  texts?: ShippedTexts;
}
