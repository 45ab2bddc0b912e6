// The preset is workspace configuration, not a project: a computed path keeps Nx's boundary rule, which
// forbids relative imports of files outside the project, from mistaking it for one.
const path = require('node:path');

// The route fuzzer (fuzz/src/routes.fuzz.spec.ts) against the whole site in a child process, and the unit tests
// of its generators and checks.
module.exports = {
  ...require(path.join(__dirname, '..', 'jest.preset.js')),
  displayName: 'fuzz',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
