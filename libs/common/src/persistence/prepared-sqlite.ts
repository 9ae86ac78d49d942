/** better-sqlite3's Database class as TypeORM calls it: a file name (or a serialized image) and options. */
type SqliteConstructor<Source = string> = new (source: Source, options: object) => object;

/**
 * In-memory SQLite databases that open as a copy of a prepared image instead of being built: the image is a
 * serialized database (better-sqlite3's `serialize()`) holding a service's schema exactly as its own build makes
 * it (synchronize from the entities, with their derived indexes, and the live-count triggers). Building that
 * schema is most of what a start on SQLite costs; a process that starts the same service many times over (the
 * test suites) builds it once and opens copies. Files under SQLITE_DIR are always built as usual.
 */
const images = new Map<string, Buffer>();

/** From now on the in-memory database of service `name` opens as a copy of `image`; undefined: built again. */
export function prepareInMemorySqlite(name: string, image: Buffer | undefined): void {
  if (image) images.set(name, image);
  else images.delete(name);
}

/** The image service `name`'s in-memory database opens from, if one was prepared. */
export function preparedInMemorySqlite(name: string): Buffer | undefined {
  return images.get(name);
}

/**
 * A better-sqlite3 stand-in for TypeORM's `driver` option: TypeORM constructs it with the database name and
 * options, and gets an in-memory database deserialized from `image` (each open its own copy).
 */
export function openingFrom(image: Buffer): SqliteConstructor {
  // better-sqlite3 is optional (see database.ts): loaded only when an in-memory SQLite database opens
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const BetterSqlite3 = require('better-sqlite3') as SqliteConstructor<Buffer>;
  return function PreparedDatabase(_name: string, options: object): object {
    return new BetterSqlite3(image, options);
  } as unknown as SqliteConstructor;
}
