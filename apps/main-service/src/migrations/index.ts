import { COMMON_MIGRATIONS, mergeMigrations, MESSAGING_MIGRATIONS } from '@app/common';
import type { MigrationClass } from '@app/common';
import { InitialSchema1795379198966 } from './1795379198966-InitialSchema';
import { MessageSchema1795451975519 } from './1795451975519-MessageSchema';
import { MessageCreateDefaults1795520000000 } from './1795520000000-MessageCreateDefaults';
import { MessageDelivery1795600000000 } from './1795600000000-MessageDelivery';
import { DeliveryFairScan1795800000000 } from './1795800000000-DeliveryFairScan';
import { EmailConfigAllowAnyFrom1795800000001 } from './1795800000001-EmailConfigAllowAnyFrom';
import { EmailConfigCleartextLogin1795800000002 } from './1795800000002-EmailConfigCleartextLogin';
import { SnapshotSchema1795387638675 } from './1795387638675-SnapshotSchema';
import { TranslationDraftIndex1795810000000 } from './1795810000000-TranslationDraftIndex';
import { ResourceIndexes1795920000000 } from './1795920000000-ResourceIndexes';
import { FilterCountTriggers1796100000010 } from './1796100000010-FilterCountTriggers';
import { MessageTraceContext1796210000010 } from './1796210000010-MessageTraceContext';
import { DeletedCountTriggers1796300000010 } from './1796300000010-DeletedCountTriggers';
import { RecordHistoryTriggers1796400000010 } from './1796400000010-RecordHistoryTriggers';
import { NotificationInbox1796400000100 } from './1796400000100-NotificationInbox';

/** MySQL/MariaDB migrations, its own and the library's (its messaging too), in order (SQLite is created from the entities). */
export const MIGRATIONS: MigrationClass[] = mergeMigrations(
  [
    InitialSchema1795379198966,
    SnapshotSchema1795387638675,
    MessageSchema1795451975519,
    MessageCreateDefaults1795520000000,
    MessageDelivery1795600000000,
    DeliveryFairScan1795800000000,
    EmailConfigAllowAnyFrom1795800000001,
    EmailConfigCleartextLogin1795800000002,
    TranslationDraftIndex1795810000000,
    ResourceIndexes1795920000000,
    FilterCountTriggers1796100000010,
    MessageTraceContext1796210000010,
    DeletedCountTriggers1796300000010,
    RecordHistoryTriggers1796400000010,
    NotificationInbox1796400000100,
  ],
  COMMON_MIGRATIONS,
  MESSAGING_MIGRATIONS,
);
