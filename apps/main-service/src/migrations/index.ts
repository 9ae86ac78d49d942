import { InitialSchema1795377833324 } from './1795377833324-InitialSchema';

/** MySQL/MariaDB migrations, in order (SQLite is created from the entities). */
export const MIGRATIONS: Function[] = [InitialSchema1795377833324];
