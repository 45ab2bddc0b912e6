module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'nest-common',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
};
