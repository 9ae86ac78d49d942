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
);
