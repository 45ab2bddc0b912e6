// One Jest run over every backend project; each keeps its own jest.config.js for focused runs.
module.exports = {
  projects: [
    '<rootDir>/{libs,services}/*/jest.config.js',
    '<rootDir>/{gateway,launcher,deploy,bench,fuzz}/jest.config.js',
  ],
  // Global options are read from this file, not from the projects' configs.
  testTimeout: 30000,
};
