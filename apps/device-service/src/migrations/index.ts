/** MySQL/MariaDB migrations of device-service, in order (SQLite is created from the entities). */
export const MIGRATIONS: Function[] = [];
