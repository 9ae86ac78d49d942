import { InitialSchema1795379198966 } from './1795379198966-InitialSchema';

/** MySQL/MariaDB migrations, in order (SQLite is created from the entities). */
export const MIGRATIONS: Function[] = [InitialSchema1795379198966];
