import { MESSAGING_ENTITIES, MessagingConfig, ServiceManifest } from '@app/common';
import { CONFIGURATION_ENTITIES } from './configuration/configuration.resources';
import { MESSAGE_ENTITIES } from './message/message.resources';
import { TEXTS } from './i18n';
import { MIGRATIONS } from './migrations';
import { SnapshotRetentionConfig } from './snapshot/snapshot-retention.config';
import { SNAPSHOT_ENTITIES } from './snapshot/snapshot.resources';
import { MainServiceConfig } from './main-service.config';

/** main-service: the configuration, message and snapshot groups; the only service with messaging (async imports). */
export const MAIN_SERVICE: ServiceManifest = {
  name: 'main-service',
  prefix: 'main-service',
  defaultPort: 3000,
  title: 'main-service',
  description: 'Back-office API: message, configuration and snapshot groups. Every response is the envelope; check `status` in the body.',
  entities: [...CONFIGURATION_ENTITIES, ...MESSAGE_ENTITIES, ...SNAPSHOT_ENTITIES, ...MESSAGING_ENTITIES],
  migrations: MIGRATIONS,
  texts: TEXTS,
  config: [MainServiceConfig, MessagingConfig, SnapshotRetentionConfig],
};
