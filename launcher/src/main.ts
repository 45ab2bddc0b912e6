import { applyStandaloneFlags, ensureNodeFlags } from './node-flags';

/**
 * The launcher's command: `node launcher/dist/main.js --target=all|gateway|identity|…` (or TARGET=…). It decides
 * first, loading nothing else, whether the targets' declared node flags are missing and the process must restart
 * with them (node-flags.ts); only then does it load the platform and the services (run.ts).
 */
function targetFromArgs(argv: string[]): string | undefined {
  const index = argv.findIndex((a) => a === '--target' || a.startsWith('--target='));
  if (index === -1) return undefined;
  return argv[index].includes('=') ? argv[index].split('=')[1] : argv[index + 1];
}

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TARGET: targetFromArgs(process.argv.slice(2)) ?? process.env.TARGET,
  };
  // Backups (ADR 0044): a command, not a server; no node flags, no services started.
  if (env.TARGET === 'backup' || env.TARGET === 'restore') {
    const { runBackupCli } = await import('./backup/cli');
    process.exit(await runBackupCli(env.TARGET, process.argv.slice(2), env));
  }
  type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;
  const targets = (env.TARGET ?? 'all').split(',').map((t) => t.trim());
  applyStandaloneFlags(targets, process.execArgv);
  ensureNodeFlags(targets, {
    execPath: process.execPath,
    execArgv: process.execArgv,
    argv: process.argv,
    env: process.env,
    execve: (process as { execve?: Execve }).execve?.bind(process),
    warn: (message) => console.warn(`launcher: ${message}`),
  });
  const { run } = await import('./run');
  await run(env);
}

void main();
