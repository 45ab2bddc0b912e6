// Writes docker-compose.yml from helm/district/values.yaml; with --check, only reports whether it is current.
import fs from 'node:fs';
import path from 'node:path';
import { loadChartValues, REPO_ROOT } from './chart-values';
import { renderComposeFile } from './compose.generator';

// Usage: generate-compose.ts [--check] [--file <path>]   (--file: another target, for tests)
export const COMPOSE_FILE = path.join(REPO_ROOT, 'docker-compose.yml');

async function main(): Promise<void> {
  const fileFlag = process.argv.indexOf('--file');
  const target =
    fileFlag > 0 && process.argv[fileFlag + 1] ? path.resolve(process.argv[fileFlag + 1]) : COMPOSE_FILE;
  const expected = await renderComposeFile(loadChartValues());
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current !== expected) {
      console.error(`${target} is out of date; run \`npm run generate:compose -w deploy\`.`);
      process.exitCode = 1;
      return;
    }
    console.log(`${target} is up to date.`);
    return;
  }
  fs.writeFileSync(target, expected);
  console.log(`wrote ${target}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
