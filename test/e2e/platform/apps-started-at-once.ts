/**
 * The test harness starts several apps at once (both services with Promise.all). Each app is built with its own
 * environment in process.env; builds that overlapped used to read each other's database URL, so a database was
 * named after another test database and the name grew past MySQL's limit, and process.env was left changed.
 */
import { baseDatabaseName, usingMysql } from '../../support/database';
import { startDeviceApp } from '../../support/device-app';
import { startApp } from '../../support/test-app';

describe('apps started at once', () => {
  it('each get a database of their own, named after the run, and leave process.env as it was', async () => {
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
