// The preset is workspace configuration, not a project: a computed path keeps Nx's boundary rule, which
// forbids relative imports of files outside the project, from mistaking it for one.
const path = require('node:path');

// Unit tests of the benchmark tooling itself (statistics, parsing, verdicts, the clients against a local
// server); the benchmarks are scripts, never tests.
module.exports = {
  ...require(path.join(__dirname, '..', 'jest.preset.js')),
  displayName: 'bench',
  rootDir: __dirname,
  testMatch: [
    '<rootDir>/lib/**/*.spec.ts',
    '<rootDir>/gateway/**/*.spec.ts',
    '<rootDir>/content/**/*.spec.ts',
    '<rootDir>/platform/**/*.spec.ts',
    '<rootDir>/assessment/**/*.spec.ts',
    '<rootDir>/faults/**/*.spec.ts',
    '<rootDir>/district/**/*.spec.ts',
    '<rootDir>/morning/**/*.spec.ts',
  ],
};
