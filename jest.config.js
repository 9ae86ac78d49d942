const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022', keepClassNames: true }, module: { type: 'commonjs' } }];
module.exports = { rootDir: __dirname, roots: ['<rootDir>/test'], testEnvironment: 'node',
  transform: { '^.+\\.[tj]s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|file-type|load-esm|uid|strtok3|token-types|@tokenizer|uint8array-extras)/)'],
  moduleFileExtensions: ['ts','js','json'] };
