import path from 'node:path';
import { REPO_ROOT } from './child-processes';
import { toolVersion } from './machine-info';
import type { LoadPlan } from './results';

/** The options every benchmark script takes, as node:util's parseArgs wants them; a script adds its own. */
export const COMMON_OPTIONS = {
  rounds: { type: 'string' },
  duration: { type: 'string' },
  warmup: { type: 'string' },
  connections: { type: 'string' },
  rate: { type: 'string' },
  'rate-duration': { type: 'string' },
  'rate-connections': { type: 'string' },
  probes: { type: 'string' },
  tool: { type: 'string' },
  'log-level': { type: 'string' },
  out: { type: 'string' },
  keep: { type: 'boolean' },
  'no-pin': { type: 'boolean' },
  node: { type: 'string' },
  'report-only': { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

/** What parseArgs gives for COMMON_OPTIONS. */
export type CommonValues = {
  [K in keyof typeof COMMON_OPTIONS]?: (typeof COMMON_OPTIONS)[K]['type'] extends 'boolean'
    ? boolean
    : string;
};

export interface CommonOptions extends LoadPlan {
  probes: string[];
  tool: 'wrk' | 'undici';
  logLevel: string;
  /** Where the JSON and the Markdown report go. */
  out: string;
  keep: boolean;
  /** Servers on one CPU, the load generator on another (taskset); off with --no-pin. */
  pin: boolean;
  /** The Node binary the servers run on (--node); this script's own when absent. */
  node?: string;
  reportOnly: boolean;
}

export interface CommonDefaults {
  /** Printed for --help. */
  usage: string;
  /** Every probe the script knows, in order: the default selection. */
  probes: readonly string[];
  /** The default --rate list, e.g. "500,100". */
  rates: string;
}

export function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (got "${value}")`);
  return n;
}

/** The common options from parsed arguments, checked; --help prints the usage and exits. */
export function commonOptions(values: CommonValues, defaults: CommonDefaults): CommonOptions {
  if (values.help) {
    console.log(defaults.usage);
    process.exit(0);
  }
  const probes = (values.probes ?? defaults.probes.join(','))
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = probes.filter((p) => !defaults.probes.includes(p));
  if (unknown.length > 0 || probes.length === 0) {
    throw new Error(`--probes takes a list of ${defaults.probes.join(', ')} (got "${values.probes}")`);
  }
  const wrkInstalled = toolVersion('wrk') !== undefined;
  const tool = values.tool ?? (wrkInstalled ? 'wrk' : 'undici');
  if (tool !== 'wrk' && tool !== 'undici') throw new Error(`--tool must be wrk or undici (got "${tool}")`);
  if (tool === 'wrk' && !wrkInstalled)
    throw new Error('wrk is not installed: apt-get install -y wrk, or pass --tool undici');
  return {
    rounds: Math.round(positive('rounds', values.rounds, 3)),
    durationSeconds: positive('duration', values.duration, 10),
    warmupSeconds: positive('warmup', values.warmup, 5),
    connections: Math.round(positive('connections', values.connections, 50)),
    rates: (values.rate ?? defaults.rates).split(',').map((r) => positive('rate', r.trim(), 1)),
    rateDurationSeconds: positive('rate-duration', values['rate-duration'], 10),
    rateConnections: Math.round(positive('rate-connections', values['rate-connections'], 50)),
    probes,
    tool,
    logLevel: values['log-level'] ?? 'info',
    out: path.resolve(values.out ?? path.join(REPO_ROOT, 'bench/reports')),
    keep: values.keep ?? false,
    pin: !(values['no-pin'] ?? false),
    ...(values.node ? { node: path.resolve(values.node) } : {}),
    reportOnly: values['report-only'] ?? false,
  };
}

/**
 * The command that measured a run, for its report: the options that shape the measurement, without where the
 * report went (`--out`, and the script's own file options in `skipWithValue`) or `--report-only`. Paths are shown
 * relative to the repository, so the command reads the same on every machine.
 */
export function benchCommand(
  script: string,
  argv: readonly string[],
  skipWithValue: readonly string[] = [],
): string {
  const skipped = new Set(['--out', ...skipWithValue]);
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const [flag] = argv[i].split('=');
    if (flag === '--report-only') continue;
    if (skipped.has(flag)) {
      if (!argv[i].includes('=')) i += 1;
      continue;
    }
    args.push(argv[i]);
  }
  const shown = args.map((a) => (path.isAbsolute(a) ? path.relative(REPO_ROOT, a) : a));
  return `npm run ${script} -w bench${shown.length > 0 ? ` -- ${shown.join(' ')}` : ''}`;
}
