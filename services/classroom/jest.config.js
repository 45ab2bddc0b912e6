module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'classroom',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
};
