// ESLint over the TypeScript of apps, libs and test: typescript-eslint's recommended rules; formatting is Prettier's.
import tseslint from 'typescript-eslint';

/**
 * A package's files past its documented entry points: its build output and internals, which change in any
 * release without notice. Only a package's own entry points are imported (`@nestjs/common/constants`, a file
 * Nest publishes for its metadata keys, and the type modules of @types packages are entry points).
 */
const PRIVATE_PATHS = [
  { regex: '^@nestjs/[^/]+/internal(/|$)', message: "Nest's internal module is not its public API." },
  { regex: '^@nestjs/(core/(?!internal(/|$)).+|.+\\.js)$', message: 'A deep path into a Nest package is not its public API.' },
  {
    regex: '^(@[^/]+/)?[^./@][^/]*/(.+/)?(cjs|esm|dist|build)(/|$)',
    message: "A package's build output is not its public API: import its entry point.",
  },
  { regex: '^(express|router|body-parser)/', message: "Express's own files are not its public API." },
  { regex: '^typeorm/', message: "TypeORM's files are not its public API: import from 'typeorm'." },
  { regex: '^class-(validator|transformer)/', message: 'Import the package itself: its files are not its public API.' },
];

/** Changing another package's objects in place: every instance then runs code its package never shipped. */
const PROTOTYPE_PATCHES = [
  {
    selector: "AssignmentExpression > MemberExpression.left > MemberExpression.object[property.name='prototype']",
    message: "Assigning to a prototype's member patches every instance: extend the class or use the package's public hooks.",
  },
  {
    selector: "CallExpression[callee.property.name='setPrototypeOf'][callee.object.name=/^(Object|Reflect)$/]",
    message: "Changing an object's prototype is patching it: make it with the class it should have.",
  },
  { selector: "MemberExpression[property.name='__proto__']", message: "__proto__ changes or reads an object's prototype in place." },
  { selector: "Property[key.name='__proto__']", message: '__proto__ in an object literal sets its prototype.' },
];

/** no-restricted-imports reads import and export declarations: a require() or import() of a build path is refused here. */
const PRIVATE_LOADS = [
  {
    selector:
      ":matches(CallExpression[callee.name='require'], ImportExpression) > Literal[value=/^(@[^/]+\\/)?[^./@][^/]*\\/(.+\\/)?(cjs|esm|dist|build|internal|lib)(\\/|$)/]",
    message: "A package's build output or internals are not its public API: import its entry point.",
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.kafka/**', 'coverage/**'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
      // a leading underscore marks a value taken apart only to leave it out (rest destructuring)
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-restricted-imports': ['error', { patterns: PRIVATE_PATHS }],
      'no-restricted-syntax': ['error', ...PROTOTYPE_PATCHES, ...PRIVATE_LOADS],
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
          // a later block's rule replaces an earlier one's whole: the private paths are refused here too
          patterns: [
            ...PRIVATE_PATHS,
            { group: ['mysql2/*'], message: 'Statements run through libs/common/src/persistence/sql/ (run-statement.ts).' },
          ],
        },
      ],
    },
  },
  {
    // the SQL module itself, and the driver's set-up: the pool TypeORM makes (deadline, request connections, the
    // Galera nodes it connects to), the
    // database created before the migrations, and their specs
    files: [
      'libs/common/src/persistence/sql/**/*.ts',
      'libs/common/src/persistence/database.ts',
      'libs/common/src/persistence/ensure-database.ts',
      'libs/common/src/persistence/statement-deadline.ts',
      'libs/common/src/persistence/statement-deadline.spec.ts',
      'libs/common/src/persistence/request-connections.ts',
      'libs/common/src/persistence/request-connections.spec.ts',
      'libs/common/src/persistence/galera-nodes.ts',
      'libs/common/src/persistence/ready-nodes.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: PRIVATE_PATHS }] },
  },
  // ---- end of one door to SQL ----
);
