import { KafkaOutbox1795388775655 } from '@app/common';
import { InitialSchema1795387461618 } from './1795387461618-InitialSchema';

/** MySQL/MariaDB migrations of device-service, in order (SQLite is created from the entities). */
export const MIGRATIONS: Function[] = [InitialSchema1795387461618, KafkaOutbox1795388775655];
