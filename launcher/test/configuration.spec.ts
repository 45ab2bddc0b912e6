import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  documentedVariables,
  isPerService,
  perServiceKey,
  registeredConfigs,
  type ConfigDefinition,
} from '@district/nest-common';
import { serviceNames } from '../src/targets';

/**
 * One way to read configuration (ADR 0038): every variable is declared with `defineConfig`, an empty value means
 * unset for every key of every schema, and the README's table lists exactly the declared variables with their
 * defaults.
 */
const root = path.resolve(__dirname, '../..');
const SCANNED = ['services', 'gateway/src', 'launcher/src', 'libs'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'test'].includes(entry.name) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

/** Every file that declares a configuration, loaded so its definition is registered. */
const declaring = SCANNED.flatMap((dir) => sourceFiles(path.join(root, dir))).filter(
  (file) =>
    !file.endsWith(path.join('config', 'define-config.ts')) &&
    /\bdefineConfig\(/.test(readFileSync(file, 'utf8')),
);
for (const file of declaring) jest.requireActual(file);

const services = serviceNames();
const context = { services };

/** The keys a definition reads in this registry (`UPSTREAM_<SERVICE>` as UPSTREAM_IDENTITY, …). */
const keysOf = (definition: ConfigDefinition) =>
  Object.keys(definition.shape).flatMap((key) =>
    isPerService(key) ? services.map((service) => perServiceKey(key, service)) : [key],
  );

describe('the registered configurations', () => {
  it('include every service that has settings, the gateway, the launcher and the platform', () => {
    expect(declaring.length).toBeGreaterThanOrEqual(9);
    expect(registeredConfigs().map((d) => d.name)).toEqual(
      expect.arrayContaining([
        'platform',
        'identity',
        'content',
        'chat',
        'classroom',
        'gateway',
        'launcher',
        'keys',
        'cluster',
      ]),
    );
  });

  it.each(registeredConfigs().map((d) => [d.name, d] as const))(
    '%s: each variable set empty gives the same configuration as leaving it unset',
    (_name, definition) => {
      const unset = definition.load({}, context);
      for (const key of keysOf(definition)) {
        let got: unknown;
        try {
          got = definition.load({ [key]: '' }, context);
        } catch (error) {
          throw new Error(`${key}= does not start: ${(error as Error).message}`, { cause: error });
        }
        expect({ key, config: got }).toEqual({ key, config: unset });
      }
      const allEmpty = Object.fromEntries(keysOf(definition).map((key) => [key, '']));
      expect(definition.load(allEmpty, context)).toEqual(unset);
    },
  );
});

/** The rows of the first table under `heading`: the variables named in the first cell, and the default cell. */
function tableUnder(file: string, heading: string): Array<{ variables: string[]; default: string }> {
  const text = readFileSync(path.join(root, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no "${heading}"`);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: Array<{ variables: string[]; default: string }> = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
    const variables = [...cells[1].matchAll(/`([^`]+)`/g)]
      .map((m) => m[1])
      .filter((name) => /^[A-Z<][A-Z0-9_<>]*$/.test(name));
    rows.push({ variables, default: cells[2] });
  }
  return rows;
}

describe("README's configuration table", () => {
  const documented = documentedVariables();
  const rows = tableUnder('README.md', '## Configuration');
  const listed = new Map(rows.flatMap((row) => row.variables.map((v) => [v, row.default] as const)));

  it('lists every variable a schema reads', () => {
    const missing = documented.map((d) => d.variable).filter((v) => !listed.has(v));
    expect(missing).toEqual([]);
  });

  it('lists no variable that no schema reads', () => {
    const known = new Set(documented.map((d) => d.variable));
    expect([...listed.keys()].filter((v) => !known.has(v))).toEqual([]);
  });

  it("shows each variable's default as its schema gives it", () => {
    const wrong = documented.flatMap(({ variable, default: expected }) => {
      const shown = listed.get(variable);
      // A note may follow the value: `52428800` (50 MiB).
      const matches = shown === expected || shown?.startsWith(`${expected} (`);
      return shown === undefined || matches
        ? []
        : [`${variable}: README shows ${shown}, the schema ${expected}`];
    });
    expect(wrong).toEqual([]);
  });
});

describe("the operator guide's configuration reference", () => {
  it('names only variables a schema reads (NODE_ENV is the runtime’s own, set in the image)', () => {
    const known = new Set(documentedVariables().map((d) => d.variable));
    const named = tableUnder('docs/operator-guide.md', '## Configuration reference').flatMap(
      (r) => r.variables,
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((v) => !known.has(v) && v !== 'NODE_ENV')).toEqual([]);
  });
});

describe('the deploy artefacts', () => {
  const known = new Set(documentedVariables().map((d) => d.variable));
  /** Read by our code: a declared variable, a per-service one, or its `_FILE` form (the image's entry point). */
  const declared = (name: string): boolean => {
    const base = name.replace(/_FILE$/, '');
    return (
      known.has(base) ||
      [...known].some((v) => isPerService(v) && services.some((s) => perServiceKey(v, s) === base))
    );
  };
  const namesIn = (file: string, pattern: RegExp) =>
    [...readFileSync(path.join(root, file), 'utf8').matchAll(pattern)].map((m) => m[1]);

  it('set only variables a schema reads (besides NODE_ENV and the PostgreSQL containers’ own)', () => {
    const set = [
      ...namesIn('docker-compose.yml', /^\s{6}([A-Z][A-Z0-9_]+):/gm),
      ...namesIn('helm/district/templates/configmap.yaml', /^\s{2}([A-Z][A-Z0-9_]+):/gm),
      ...namesIn('helm/district/templates/secret.yaml', /^\s{2}([A-Z][A-Z0-9_]+):/gm),
      ...namesIn('helm/district/templates/deployments.yaml', /- name: ([A-Z][A-Z0-9_]+)$/gm),
    ];
    expect(set.length).toBeGreaterThan(20);
    const stray = set.filter(
      (name) => name !== 'NODE_ENV' && !name.startsWith('POSTGRES_') && !declared(name),
    );
    expect([...new Set(stray)]).toEqual([]);
  });
});
