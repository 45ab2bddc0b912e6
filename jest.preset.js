// Shared Jest settings: swc compiles TypeScript (with decorator metadata for Nest) much faster than ts-jest.
const path = require('node:path');
const { pathsToModuleNameMapper } = require('./scripts/jest-paths.js');

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.m?(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // jose 6, NestJS 12 and a few others ship ESM only (httpxy as `.mjs`); let swc compile them for Jest's CommonJS
  // runtime.
  transformIgnorePatterns: [
    '/node_modules/(?!(jose|oidc-provider|openid-client|oauth4webapi|@panva|httpxy|@nestjs)/)',
  ],
  moduleNameMapper: pathsToModuleNameMapper(path.join(__dirname, 'tsconfig.base.json')),
  testTimeout: 30000,
};
