import { historyTriggerNames, historyTriggers } from './history-sql';

const shape = { table: 'fixture_config', idColumn: 'fixture_config_id', columns: ['name', 'password'], secretColumns: ['password'] };

describe('history triggers', () => {
  it.each(['mysql', 'sqlite'] as const)('%s: one trigger per event, named after the table', (engine) => {
    const sql = historyTriggers(engine, shape);
    expect(sql.map((text) => /TRIGGER [`"]([^`"]+)[`"] AFTER (\w+)/.exec(text)!.slice(1))).toEqual([
      ['fixture_config_rh_ins', 'INSERT'],
      ['fixture_config_rh_upd', 'UPDATE'],
      ['fixture_config_rh_del', 'DELETE'],
    ]);
    expect(historyTriggerNames('fixture_config')).toEqual(['fixture_config_rh_ins', 'fixture_config_rh_upd', 'fixture_config_rh_del']);
  });

  it.each(['mysql', 'sqlite'] as const)('%s: a secret column is named but its values are never read into an entry', (engine) => {
    const text = historyTriggers(engine, shape).join('\n');
    expect(text).toMatch(/json_array\((OLD|NULL)[^)]*name/i);
    expect(text).not.toMatch(/json_array\([^)]*password/i);
    expect(text).toContain(`',"password"'`);
  });

  it.each(['mysql', 'sqlite'] as const)('%s: a purge blanks the record’s entries and writes PURGE', (engine) => {
    const purge = historyTriggers(engine, shape)[2];
    expect(purge).toContain(
      "UPDATE record_history SET changed_values = NULL WHERE tenant_id = OLD.tenant_id AND table_name = 'fixture_config'",
    );
    expect(purge).toContain("'PURGE'");
  });
});
