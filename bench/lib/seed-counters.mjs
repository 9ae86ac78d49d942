// The counts the live-count and deleted-count triggers keep (live_count, filter_count, deleted_count), written for rows inserted while a table's
// triggers are dropped: without an upsert per row and counted column, millions of rows go in several times
// faster. The counts are added afterwards by GROUP BY, to the rows and in the slot the triggers would have added
// them to one row at a time, and checked against the rows. Only the connection's own database is touched.

const LIVE = 0; // delete_time of a live row
const SLOTS = 8; // a trigger adds to slot CONNECTION_ID() % 8 of the connection that writes (LIVE_COUNT_SLOTS)
const SLOT = `CONNECTION_ID() % ${SLOTS}`;

/** The filter columns whose counts `table`'s INSERT trigger keeps: its text names them. */
export async function countedColumns(db, table) {
  const [[trigger]] = await db.query(
    `SELECT ACTION_STATEMENT AS body FROM information_schema.TRIGGERS
      WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = ? AND EVENT_MANIPULATION = 'INSERT'`,
    [table],
  );
  if (!trigger) throw new Error(`${table} has no live-count INSERT trigger: run the migrations`);
  return [...trigger.body.matchAll(/, NEW\.tenant_id, '([^']+)', NEW\./g)].map((match) => match[1]);
}

/** Runs `write` with `table`'s triggers dropped; afterwards, whatever happened, creates them again as they were. */
export async function withoutTriggers(db, table, write) {
  const [names] = await db.query(
    'SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = ?',
    [table],
  );
  const saved = [];
  for (const { name } of names) {
    const [[shown]] = await db.query(`SHOW CREATE TRIGGER \`${name}\``);
    saved.push({
      name,
      statement: shown['SQL Original Statement'],
      // the settings the trigger was created, and runs, under
      settings: {
        sql_mode: shown.sql_mode,
        character_set_client: shown.character_set_client,
        collation_connection: shown.collation_connection,
      },
    });
  }
  try {
    for (const { name } of saved) await db.query(`DROP TRIGGER \`${name}\``);
    return await write();
  } finally {
    const [[session]] = await db.query(
      'SELECT @@SESSION.sql_mode AS sql_mode, @@SESSION.character_set_client AS character_set_client, @@SESSION.collation_connection AS collation_connection',
    );
    const [present] = await db.query('SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()');
    const existing = new Set(present.map(({ name }) => name));
    for (const { name, statement, settings } of saved) {
      if (existing.has(name)) continue; // never dropped: the failure came first
      await setSession(db, settings);
      await db.query(statement);
    }
    await setSession(db, session);
  }
}

const setSession = (db, settings) =>
  db.query(
    `SET SESSION ${Object.keys(settings)
      .map((name) => `${name} = ?`)
      .join(', ')}`,
    Object.values(settings),
  );

/**
 * Adds to the counts of `tenant` in `table` what the triggers would have added for its rows whose `keyColumn`
 * is above `after`: every row a write of the tenant and, when live, one live row; when live, one row of its
 * value in each counted column that has a value; when logically deleted, one deleted row.
 */
export async function addCounts(db, { table, keyColumn, tenant, after, columns }) {
  const rows = `FROM \`${table}\` WHERE tenant_id = ? AND \`${keyColumn}\` > ?`;
  await db.query(
    `INSERT INTO deleted_count (table_name, tenant_id, slot, deleted)
     SELECT ?, tenant_id, ${SLOT}, SUM(delete_time <> ${LIVE}) ${rows} GROUP BY tenant_id
     ON DUPLICATE KEY UPDATE deleted = deleted + VALUES(deleted)`,
    [table, tenant, after],
  );
  await db.query(
    `INSERT INTO live_count (table_name, tenant_id, slot, live, writes)
     SELECT ?, tenant_id, ${SLOT}, SUM(delete_time = ${LIVE}), COUNT(1) ${rows} GROUP BY tenant_id
     ON DUPLICATE KEY UPDATE live = live + VALUES(live), writes = writes + VALUES(writes)`,
    [table, tenant, after],
  );
  for (const column of columns) {
    await db.query(
      `INSERT INTO filter_count (table_name, tenant_id, field, value, slot, live)
       SELECT ?, tenant_id, ?, \`${column}\`, ${SLOT}, COUNT(1) ${rows} AND delete_time = ${LIVE} AND \`${column}\` IS NOT NULL
       GROUP BY tenant_id, \`${column}\`
       ON DUPLICATE KEY UPDATE live = live + VALUES(live)`,
      [table, column, tenant, after],
    );
  }
}

/**
 * Checks the kept counts of `tenant` in `table`, written into a fresh table (each row inserted once): the sum
 * of its live counts is its live rows, of its writes its rows, of its deleted counts its logically deleted rows, and the sum over slots of each value's count in
 * each counted column the live rows with that value. Throws, naming the first difference.
 */
export async function verifyCounts(db, { table, tenant, columns }) {
  const [[kept]] = await db.query(
    'SELECT SUM(live) AS live, SUM(writes) AS writes FROM live_count WHERE table_name = ? AND tenant_id = ?',
    [table, tenant],
  );
  const [[actual]] = await db.query(`SELECT SUM(delete_time = ${LIVE}) AS live, COUNT(1) AS writes FROM \`${table}\` WHERE tenant_id = ?`, [
    tenant,
  ]);
  for (const count of ['live', 'writes']) {
    if (Number(kept[count]) !== Number(actual[count]))
      throw new Error(`${table}, tenant ${tenant}: live_count ${count} ${kept[count]}, the rows say ${actual[count]}`);
  }
  const [[{ deleted }]] = await db.query(
    'SELECT COALESCE(SUM(deleted), 0) AS deleted FROM deleted_count WHERE table_name = ? AND tenant_id = ?',
    [table, tenant],
  );
  const [[{ rows: deletedRows }]] = await db.query(
    `SELECT COUNT(1) AS \`rows\` FROM \`${table}\` WHERE tenant_id = ? AND delete_time <> ${LIVE}`,
    [tenant],
  );
  if (Number(deleted) !== Number(deletedRows))
    throw new Error(`${table}, tenant ${tenant}: deleted_count ${deleted}, the rows say ${deletedRows}`);
  for (const column of columns) {
    const [keptRows] = await db.query(
      'SELECT value, SUM(live) AS n FROM filter_count WHERE table_name = ? AND tenant_id = ? AND field = ? GROUP BY value',
      [table, tenant, column],
    );
    const [actualRows] = await db.query(
      `SELECT \`${column}\` AS value, COUNT(1) AS n FROM \`${table}\`
        WHERE tenant_id = ? AND delete_time = ${LIVE} AND \`${column}\` IS NOT NULL GROUP BY \`${column}\``,
      [tenant],
    );
    const keptByValue = new Map(keptRows.map(({ value, n }) => [String(value), Number(n)]));
    const actualByValue = new Map(actualRows.map(({ value, n }) => [String(value), Number(n)]));
    for (const value of new Set([...keptByValue.keys(), ...actualByValue.keys()])) {
      const [keptCount, actualCount] = [keptByValue.get(value) ?? 0, actualByValue.get(value) ?? 0];
      if (keptCount !== actualCount)
        throw new Error(`${table}, tenant ${tenant}: filter_count of ${column} = '${value}' is ${keptCount}, the rows say ${actualCount}`);
    }
  }
}
