import { KafkaOutbox1795388775655 } from '@app/common';
import { ImportTrust1795470318204 } from '@app/common/messaging/migrations/1795470318204-ImportTrust';
import { InitialSchema1795387461618 } from './1795387461618-InitialSchema';
import { TokenThrottle1795490000000 } from './1795490000000-TokenThrottle';

/** MySQL/MariaDB migrations of device-service, in order (SQLite is created from the entities). */
export const MIGRATIONS: Function[] = [InitialSchema1795387461618, KafkaOutbox1795388775655, ImportTrust1795470318204, TokenThrottle1795490000000];
