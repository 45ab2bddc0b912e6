module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'launcher',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
};
