/** MySQL/MariaDB migrations, in order (SQLite is created from the entities). */
export const MIGRATIONS: Function[] = [];
