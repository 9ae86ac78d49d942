import { COMMON_MIGRATIONS, KafkaOutbox1795388775655, mergeMigrations } from '@app/common';
import { ImportTrust1795470318204 } from '@app/common/messaging/migrations/1795470318204-ImportTrust';
import type { MigrationClass } from '@app/common';
import { InitialSchema1795387461618 } from './1795387461618-InitialSchema';
import { TokenThrottle1795490000000 } from './1795490000000-TokenThrottle';
import { SharedTokenThrottle1795710000000 } from './1795710000000-SharedTokenThrottle';
import { DropMessaging1795800000000 } from './1795800000000-DropMessaging';
import { ResourceIndexes1795920000000 } from './1795920000000-ResourceIndexes';
import { FilterCountTriggers1796100000020 } from './1796100000020-FilterCountTriggers';
import { WriteStampColumns1796400000020 } from './1796400000020-WriteStampColumns';

/**
 * MySQL/MariaDB migrations of device-service, its own and the library's, in order (SQLite is created from the entities).
 * The messaging ones its databases applied before DropMessaging stay; DropMessaging removes their tables (device-service
 * has no messaging), so the later messaging migrations are not its own.
 */
export const MIGRATIONS: MigrationClass[] = mergeMigrations(
  [
    InitialSchema1795387461618,
    TokenThrottle1795490000000,
    SharedTokenThrottle1795710000000,
    DropMessaging1795800000000,
    ResourceIndexes1795920000000,
    FilterCountTriggers1796100000020,
    WriteStampColumns1796400000020,
  ],
  COMMON_MIGRATIONS,
  [KafkaOutbox1795388775655, ImportTrust1795470318204],
);
