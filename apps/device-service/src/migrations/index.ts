import { KafkaOutbox1795388775655, ReplicaState1795700000000 } from '@app/common';
import type { MigrationClass } from '@app/common';
import { ImportTrust1795470318204 } from '@app/common/messaging/migrations/1795470318204-ImportTrust';
import { InitialSchema1795387461618 } from './1795387461618-InitialSchema';
import { TokenThrottle1795490000000 } from './1795490000000-TokenThrottle';
import { SharedTokenThrottle1795710000000 } from './1795710000000-SharedTokenThrottle';
import { DropMessaging1795800000000 } from './1795800000000-DropMessaging';
import { ResourceIndexes1795900000000 } from './1795900000000-ResourceIndexes';

/**
 * MySQL/MariaDB migrations of device-service, in order (SQLite is created from the entities). KafkaOutbox and ImportTrust
 * stay because its databases have applied them; DropMessaging removes their tables (device-service has no messaging).
 */
export const MIGRATIONS: MigrationClass[] = [
  InitialSchema1795387461618,
  KafkaOutbox1795388775655,
  ImportTrust1795470318204,
  TokenThrottle1795490000000,
  ReplicaState1795700000000,
  SharedTokenThrottle1795710000000,
  DropMessaging1795800000000,
  ResourceIndexes1795900000000,
];
