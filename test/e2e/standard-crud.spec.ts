/**
 * The standard operations run as one spec file per group (standard-crud-<group>.spec.ts, each calling
 * describeStandardCrud of test/support/standard-suite.ts), so Jest's workers share them. A group added
 * to test/support/tables without its file would go untested: this test names it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GROUPS } from '../support/tables';

const FILE = /^standard-crud-(.+)\.spec\.ts$/;

it('every group of the tables has its spec file, which runs the standard suite for that group', () => {
  const files = readdirSync(__dirname).filter((name) => FILE.test(name));
  const covered = files.filter((name) =>
    readFileSync(join(__dirname, name), 'utf8').includes(`describeStandardCrud('${FILE.exec(name)![1]}')`),
  );
  expect(covered.map((name) => FILE.exec(name)![1]).sort()).toEqual(GROUPS.map((g) => g.name).sort());
});
