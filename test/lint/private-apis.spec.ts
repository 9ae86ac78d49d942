/**
 * The lint rules that keep the code on packages' public APIs: no import of a package's internals or build output,
 * no patch of another package's prototypes. ESLint runs as `npm run lint` runs it (its CLI, the repository's
 * config), on snippets given as a file of libs.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

interface LintMessage {
  ruleId: string | null;
  line: number;
}

/** The rule of each problem ESLint finds in `source`, linted as a file of libs/common/src, by line. */
function lint(source: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [join(ROOT, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', 'libs/common/src/snippet.ts', '--format', 'json'],
      { cwd: ROOT },
      (error, stdout) => {
        // exit code 1: problems found, which is what this spec looks at
        if (error && error.code !== 1) return reject(error);
        const [result] = JSON.parse(stdout) as { messages: LintMessage[] }[];
        resolve(result.messages.map((m) => `${m.line} ${m.ruleId}`));
      },
    );
    child.stdin!.end(source);
  });
}

describe('lint rules for public APIs', () => {
  it('refuses imports and loads of internal and build paths, and allows entry points', async () => {
    const problems = await lint(
      [
        "import { InterceptorsConsumer } from '@nestjs/core/internal';",
        "import { RouterExecutionContext } from '@nestjs/core/router/router-execution-context.js';",
        "import type { HttpArgumentsHost } from '@nestjs/common/internal';",
        "import Layer from 'router/lib/layer';",
        "import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';",
        "import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';",
        "const storage = require('class-transformer/cjs/storage');",
        "const app = import('express/lib/application');",
        "import { Controller } from '@nestjs/common';",
        "import { GUARDS_METADATA } from '@nestjs/common/constants';",
        "import { DataSource } from 'typeorm';",
        "import { join } from 'node:path';",
        "import { local } from './dist/local';",
        'export { InterceptorsConsumer, RouterExecutionContext, Layer, ColumnMetadata, storage, app, Controller, GUARDS_METADATA, DataSource, join, local };',
        'export type { HttpArgumentsHost, ValidationMetadata };',
      ].join('\n'),
    );
    expect(problems).toEqual([
      '1 no-restricted-imports',
      '2 no-restricted-imports',
      '3 no-restricted-imports',
      '4 no-restricted-imports',
      '5 no-restricted-imports',
      '6 no-restricted-imports',
      '7 @typescript-eslint/no-require-imports',
      '7 no-restricted-syntax',
      '8 no-restricted-syntax',
    ]);
  });

  it('refuses patching prototypes, and allows reading them and making a function of its own', async () => {
    const problems = await lint(
      [
        'class Own {}',
        'export function patch(target: { prototype: Record<string, unknown> }, value: object): void {',
        '  target.prototype.intercept = () => undefined;',
        '  Object.setPrototypeOf(value, Own.prototype);',
        '  Reflect.setPrototypeOf(value, null);',
        '  (value as { __proto__: object }).__proto__ = Own.prototype;',
        '  const literal = { __proto__: value };',
        '  const read = Object.getPrototypeOf(value) === Own.prototype;',
        '  function Made() {}',
        '  Made.prototype = value;',
        '  void [literal, read, Made];',
        '}',
      ].join('\n'),
    );
    expect(problems).toEqual([
      '3 no-restricted-syntax',
      '4 no-restricted-syntax',
      '5 no-restricted-syntax',
      '6 no-restricted-syntax',
      '7 no-restricted-syntax',
    ]);
  });
});
