/**
 * The test harness starts several apps at once (both services with Promise.all). Each app is built with its own
 * environment in process.env: builds that overlapped would read each other's database URL (a new database named
 * after another test database, the name growing past MySQL's limit) and leave process.env changed.
 */
import { baseDatabaseName, usingMysql } from '../../support/database';
import { startDeviceApp } from '../../support/device-app';
import { startApp } from '../../support/test-app';

describe('apps started at once', () => {
  it('each gets a database of its own, named after the run, and process.env is left as it was', async () => {
    const before = { ...process.env };
    const apps = await Promise.all([startApp(), startApp(), startDeviceApp()]);
    try {
      expect(process.env).toEqual(before);
      if (!usingMysql()) return;
      const names = apps.map((t) => t.dataSource.driver.database);
      expect(new Set(names).size).toBe(apps.length);
      for (const name of names) expect(name).toMatch(new RegExp(`^${baseDatabaseName()}_w\\d+_[0-9a-f]{8}$`));
    } finally {
      await Promise.all(apps.map((t) => t.close()));
    }
  });
});
