import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadChartValues, REPO_ROOT } from '../src/chart-values';

interface Registry {
  services: string[];
  gateway: string;
  /** For each name asked about: the launcher's answer to `--target=<name>` (undefined when accepted). */
  refusals: Record<string, string | undefined>;
}

/**
 * CONVENTIONS rule 12: a service is added in its folder plus one line of the launcher's target registry,
 * and the deployment artefacts follow from one list (the chart's `services`, from which compose is made).
 * This holds the two lists together, both ways. The registry is read in a child process, as the launcher
 * itself loads it, because this project may not import the launcher.
 */
function launcherRegistry(asked: readonly string[]): Registry {
  const script = [
    "const targets = require('./launcher/src/targets');",
    'const refusals = {};',
    'for (const name of JSON.parse(process.env.ASKED)) {',
    '  try { targets.resolveTargets([name]); refusals[name] = undefined; } catch (e) { refusals[name] = e.message; }',
    '}',
    'process.stdout.write(JSON.stringify({ services: targets.serviceNames(), gateway: targets.GATEWAY_TARGET, refusals }));',
  ].join('\n');
  const result = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: {
      ...process.env,
      SWC_NODE_PROJECT: 'tsconfig.runtime.json',
      LOG_LEVEL: 'silent',
      ASKED: JSON.stringify(asked),
    },
  });
  if (result.status !== 0) throw new Error(`reading launcher/src/targets.ts failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as Registry;
}

/** services/<folder> with a package.json: a service's project. */
function serviceFolders(): string[] {
  const dir = path.join(REPO_ROOT, 'services');
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, 'package.json')))
    .map((entry) => entry.name);
}

describe('the one list of services', () => {
  const chartServices = Object.keys(loadChartValues().services);
  const registry = launcherRegistry([...chartServices, 'nosuchservice']);

  it('gives every target of the launcher a Deployment and a compose service', () => {
    expect(registry.services.length).toBeGreaterThan(0);
    for (const name of registry.services) expect([name, chartServices.includes(name)]).toEqual([name, true]);
  });

  it('deploys only services the launcher runs: each chart entry is a --target it accepts', () => {
    for (const name of chartServices) {
      expect([name, registry.services.includes(name), registry.refusals[name]]).toEqual([
        name,
        true,
        undefined,
      ]);
    }
    // The check has teeth: a name the registry lacks is refused, as a pod started with it would be.
    expect(registry.refusals.nosuchservice).toMatch(/Unknown target\(s\): nosuchservice/);
  });

  it('registers every service folder (services/<name>)', () => {
    const folders = serviceFolders();
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders)
      expect([folder, registry.services.includes(folder)]).toEqual([folder, true]);
  });

  it('uses the launcher’s name for the gateway target', () => {
    expect(registry.gateway).toBe('gateway');
    expect(chartServices).not.toContain(registry.gateway);
  });
});
