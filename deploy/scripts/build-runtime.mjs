#!/usr/bin/env node
// `npm run build:runtime -w deploy [-- --out <dir>] [--if-stale] [--json] [--with-embedded-database]`
// Builds the production runtime tree (default dist/runtime): the directory the Dockerfile's last stage copies
// to /app. Needs the full development install (for @swc/core) and a built web app (web/dist). The tree runs the
// cluster targets and leaves embedded PostgreSQL out (ADR 0045); --with-embedded-database keeps it, for a tree
// that also runs the standalone mode (`--target=all` without DATABASE_URL).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_OUT, buildRuntimeTree, megabytes } from './runtime-tree.mjs';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: DEFAULT_OUT },
    'if-stale': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'with-embedded-database': { type: 'boolean', default: false },
  },
});

try {
  const out = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out);
  const report = await buildRuntimeTree({
    out,
    ifStale: values['if-stale'],
    embeddedDatabase: values['with-embedded-database'],
    log: values.json ? () => {} : (line) => console.log(line),
  });
  if (values.json) {
    console.log(JSON.stringify(report));
  } else {
    console.log(`runtime tree: ${out}`);
    console.log(`  ${report.compiledFiles} compiled files from ${report.workspaces.join(', ')}`);
    console.log(
      `  total ${megabytes(report.totalBytes)} (${Object.entries(report.parts)
        .map(([k, v]) => `${k} ${megabytes(v)}`)
        .join(', ')})`,
    );
    if (report.leftOut.length)
      console.log(
        `  left out (standalone only): ${report.leftOut.map((p) => `${p.name} ${megabytes(p.bytes)}`).join(', ')}`,
      );
    console.log('  largest packages:');
    for (const p of report.largestPackages) console.log(`    ${megabytes(p.bytes).padStart(9)}  ${p.name}`);
  }
} catch (error) {
  console.error(`build-runtime: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
