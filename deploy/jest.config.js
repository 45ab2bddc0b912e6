// The shared preset by Jest's own `preset` key: a require() of ../jest.preset.js trips the module-boundary rule.
module.exports = {
  preset: '../jest.preset.js',
  displayName: 'deploy',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
};
