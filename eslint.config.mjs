// ESLint over the TypeScript of apps, libs and test: typescript-eslint's recommended rules; formatting is Prettier's.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.kafka/**', 'coverage/**'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
      // a leading underscore marks a value taken apart only to leave it out (rest destructuring)
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  // ---- one door to SQL: mysql2 only in persistence/sql/ and the driver's set-up ----
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'mysql2', message: 'Statements run through libs/common/src/persistence/sql/ (run-statement.ts).' }],
          patterns: [{ group: ['mysql2/*'], message: 'Statements run through libs/common/src/persistence/sql/ (run-statement.ts).' }],
        },
      ],
    },
  },
  {
    // the SQL module itself, and the driver's set-up: the pool TypeORM makes (deadline, request connections), the
    // database created before the migrations, and their specs
    files: [
      'libs/common/src/persistence/sql/**/*.ts',
      'libs/common/src/persistence/database.ts',
      'libs/common/src/persistence/ensure-database.ts',
      'libs/common/src/persistence/statement-deadline.ts',
      'libs/common/src/persistence/statement-deadline.spec.ts',
      'libs/common/src/persistence/request-connections.ts',
      'libs/common/src/persistence/request-connections.spec.ts',
    ],
    rules: { 'no-restricted-imports': 'off' },
  },
  // ---- end of one door to SQL ----
);
