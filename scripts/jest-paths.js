// Maps tsconfig.base.json path aliases to Jest's moduleNameMapper so tests resolve libs like the compiler does.
const fs = require('node:fs');
const path = require('node:path');

exports.pathsToModuleNameMapper = (tsconfigFile) => {
  const { compilerOptions } = JSON.parse(fs.readFileSync(tsconfigFile, 'utf8'));
  const root = path.dirname(tsconfigFile);
  const mapper = {};
  for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
    const escaped = alias.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    mapper[`^${escaped}$`] = path.join(root, target);
  }
  return mapper;
};
