/**
 * test/e2e has one pattern: the cases of an area live in a folder (./imports/) that one spec file beside it
 * runs by importing them (./imports.spec.ts), and the standard operations run as one spec file per group of
 * test/support/tables (standard-crud-<group>.spec.ts) through every concern of test/support/standard/. Jest
 * runs only *.spec.ts files, so a case file no spec imports would be skipped without a word: these tests name it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { GROUPS } from '../support/tables';

const E2E = __dirname;
const STANDARD_CRUD = /^standard-crud-(.+)\.spec\.ts$/;
const GUARD = 'every-case-runs.spec.ts';

const areas = readdirSync(E2E).filter((name) => statSync(join(E2E, name)).isDirectory());
const rootFiles = readdirSync(E2E).filter((name) => statSync(join(E2E, name)).isFile());

/** The files a TypeScript file imports by a relative path that stays inside `folder`. */
function localImports(file: string, folder: string): string[] {
  const found = [...readFileSync(file, 'utf8').matchAll(/(?:import|from)\s+'(\.{1,2}\/[^']+)'/g)].map((m) =>
    resolve(dirname(file), `${m[1].replace(/\.js$/, '')}.ts`),
  );
  return found.filter((path) => path.startsWith(folder + '/') && existsSync(path));
}

/** Every file of `folder` that `spec` reaches through relative imports. */
function reached(spec: string, folder: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    for (const next of localImports(file, folder)) if (!seen.has(next) && seen.add(next)) visit(next);
  };
  visit(spec);
  return seen;
}

it('every file at the top of test/e2e is a spec: an area spec, a standard-crud group spec, or this guard', () => {
  const stray = rootFiles.filter((name) => name !== GUARD && !STANDARD_CRUD.test(name) && !areas.includes(name.replace(/\.spec\.ts$/, '')));
  expect(stray).toEqual([]);
});

it.each(areas.map((area) => ({ area })))('every file of $area/ runs from the area spec beside the folder', ({ area }) => {
  const folder = join(E2E, area);
  const spec = join(E2E, `${area}.spec.ts`);
  expect(existsSync(spec)).toBe(true);
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
  const run = reached(spec, folder);
  expect(files.filter((name) => !run.has(join(folder, name))).map((name) => relative(E2E, join(folder, name)))).toEqual([]);
});

it('every file of test/support/standard/ is registered in the suite the standard-crud spec files run', () => {
  const folder = resolve(E2E, '../support/standard');
  const run = reached(join(folder, 'suite.ts'), folder);
  const files = readdirSync(folder).filter((name) => name !== 'suite.ts');
  expect(files.filter((name) => !run.has(join(folder, name)))).toEqual([]);
});

it('every group of the tables has its spec file, which runs the standard suite for that group', () => {
  const covered = rootFiles.filter(
    (name) =>
      STANDARD_CRUD.test(name) && readFileSync(join(E2E, name), 'utf8').includes(`describeStandardCrud('${STANDARD_CRUD.exec(name)![1]}')`),
  );
  expect(covered.map((name) => STANDARD_CRUD.exec(name)![1]).sort()).toEqual(GROUPS.map((g) => g.name).sort());
});
