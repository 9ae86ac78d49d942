/** What a database URL (DB_URL) names: where to connect, as whom, and which database. */
export interface DatabaseUrl {
  /** `mysql` or `mariadb`, as written. */
  scheme: string;
  /** Percent-escapes decoded, as the driver reads them; empty when the URL names none. */
  user: string;
  password: string;
  /** A name or an IPv4 address (the driver reads no IPv6 address from a URL). */
  host: string;
  port?: number;
  database: string;
}

/** A URL's start: its scheme and `//`. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
/** What follows the credentials: host, optional port, `/` and the database name (DB_URL's pattern), optional query. */
const TARGET = /^([^@/?#:[\]\s]+)(?::(\d{1,5}))?\/([A-Za-z0-9_$]+)(?:\?.*)?$/s;

/**
 * The parts of a database URL, or null when it does not read as `scheme://[user[:password]@]host[:port]/database`.
 * A password may hold unescaped `@`, `:`, `/`, `?` or `#`: the credentials end at the last `@` that a host and a
 * database follow, and the user at the first `:`, so no part of a password is ever read as the host or database.
 */
export function readDatabaseUrl(url: string): DatabaseUrl | null {
  const scheme = SCHEME.exec(url);
  if (!scheme) return null;
  const rest = url.slice(scheme[0].length);
  for (let at = rest.length - 1; at >= -1; at--) {
    if (at >= 0 && rest[at] !== '@') continue;
    const target = TARGET.exec(rest.slice(at + 1));
    if (!target) continue;
    const credentials = at < 0 ? '' : rest.slice(0, at);
    const colon = credentials.indexOf(':');
    return {
      scheme: scheme[1],
      user: decoded(colon < 0 ? credentials : credentials.slice(0, colon)),
      password: colon < 0 ? '' : decoded(credentials.slice(colon + 1)),
      host: target[1],
      port: target[2] === undefined ? undefined : Number(target[2]),
      database: target[3],
    };
  }
  return null;
}

/**
 * A database URL fit for a log line or an error: scheme, host, port and database only, never the user or the
 * password (however they are written). A URL that does not read as one is not shown at all.
 */
export function printableDatabaseUrl(url: string): string {
  const parts = readDatabaseUrl(url);
  if (!parts) return '(not a readable database URL)';
  const port = parts.port === undefined ? '' : `:${parts.port}`;
  return `${parts.scheme}://${parts.host}${port}/${parts.database}`;
}

/** Percent-escapes decoded, as the driver does; a `%` that starts no escape is kept as written. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
