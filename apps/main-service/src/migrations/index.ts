import { InitialSchema1795379198966 } from './1795379198966-InitialSchema';
import { KafkaOutbox1795388775655 } from './1795388775655-KafkaOutbox';

/** MySQL/MariaDB migrations, in order (SQLite is created from the entities). */
export const MIGRATIONS: Function[] = [InitialSchema1795379198966, KafkaOutbox1795388775655];
