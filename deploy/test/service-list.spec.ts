import { spawnSync } from 'node:child_process';
import { loadChartValues, REPO_ROOT } from '../src/chart-values';

/**
 * CONVENTIONS rule 12: a service is added in its folder plus one line of the launcher's target registry,
 * and the deployment artefacts follow from one list (the chart's `services`, from which compose is made).
 * This holds the two lists together. The registry is read in a child process, as the launcher itself
 * loads it, because this project may not import the launcher.
 */
function launcherRegistry(): { services: string[]; gateway: string } {
  const script = [
    "const targets = require('./launcher/src/targets');",
    'process.stdout.write(JSON.stringify({ services: targets.serviceNames(), gateway: targets.GATEWAY_TARGET }));',
  ].join('\n');
  const result = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, SWC_NODE_PROJECT: 'tsconfig.runtime.json', LOG_LEVEL: 'silent' },
  });
  if (result.status !== 0) throw new Error(`reading launcher/src/targets.ts failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as { services: string[]; gateway: string };
}

describe('the one list of services', () => {
  const registry = launcherRegistry();
  const chartServices = Object.keys(loadChartValues().services);

  it('gives every target of the launcher a Deployment and a compose service', () => {
    expect(registry.services.length).toBeGreaterThan(0);
    for (const name of registry.services) expect([name, chartServices.includes(name)]).toEqual([name, true]);
  });

  it('uses the launcher’s name for the gateway target', () => {
    expect(registry.gateway).toBe('gateway');
    expect(chartServices).not.toContain(registry.gateway);
  });
});
