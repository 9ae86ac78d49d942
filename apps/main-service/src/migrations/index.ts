import { KafkaOutbox1795388775655, ReplicaState1795700000000 } from '@app/common';
import type { MigrationClass } from '@app/common';
import { ImportTrust1795470318204 } from '@app/common/messaging/migrations/1795470318204-ImportTrust';
import { InitialSchema1795379198966 } from './1795379198966-InitialSchema';
import { MessageSchema1795451975519 } from './1795451975519-MessageSchema';
import { MessageCreateDefaults1795520000000 } from './1795520000000-MessageCreateDefaults';
import { MessageDelivery1795600000000 } from './1795600000000-MessageDelivery';
import { DeliveryFairScan1795800000000 } from './1795800000000-DeliveryFairScan';
import { EmailConfigAllowAnyFrom1795800000001 } from './1795800000001-EmailConfigAllowAnyFrom';
import { EmailConfigCleartextLogin1795800000002 } from './1795800000002-EmailConfigCleartextLogin';
import { SnapshotSchema1795387638675 } from './1795387638675-SnapshotSchema';
import { TranslationDraftIndex1795810000000 } from './1795810000000-TranslationDraftIndex';
import { ResourceIndexes1795900000000 } from './1795900000000-ResourceIndexes';

/** MySQL/MariaDB migrations, in order (SQLite is created from the entities). */
export const MIGRATIONS: MigrationClass[] = [
  InitialSchema1795379198966,
  SnapshotSchema1795387638675,
  KafkaOutbox1795388775655,
  MessageSchema1795451975519,
  ImportTrust1795470318204,
  MessageCreateDefaults1795520000000,
  MessageDelivery1795600000000,
  ReplicaState1795700000000,
  DeliveryFairScan1795800000000,
  EmailConfigAllowAnyFrom1795800000001,
  EmailConfigCleartextLogin1795800000002,
  TranslationDraftIndex1795810000000,
  ResourceIndexes1795900000000,
];
