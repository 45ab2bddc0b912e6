import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import YAML from 'yaml';

/** Repository root, from deploy/src. */
export const REPO_ROOT = path.resolve(__dirname, '../..');
export const CHART_DIR = path.join(REPO_ROOT, 'helm/district');
export const VALUES_FILE = path.join(CHART_DIR, 'values.yaml');
export const VALUES_SCHEMA_FILE = path.join(CHART_DIR, 'values.schema.json');

interface Quantities {
  cpu?: string | number;
  memory?: string | number;
}

export interface WorkloadSpec {
  replicas: number;
  resources: { requests?: Quantities; limits?: Quantities };
  hpa: {
    enabled: boolean;
    minReplicas?: number;
    maxReplicas?: number;
    targetCPUUtilizationPercentage?: number;
  };
  pdb: { maxUnavailable?: number | string; minAvailable?: number | string };
  terminationGracePeriodSeconds: number;
  /** Receives the private signing key and the bootstrap admin credentials. */
  signsTokens: boolean;
}

export interface ChartValues {
  port: number;
  config: { publicUrl: string; demo: boolean; logLevel: string };
  defaults: WorkloadSpec;
  gateway: Partial<WorkloadSpec> | null;
  /** The one list of back-end services, in file order. */
  services: Record<string, Partial<WorkloadSpec> | null>;
  probes: Record<'liveness' | 'readiness' | 'startup', { path: string }>;
}

export interface Workload {
  name: string;
  gateway: boolean;
  spec: WorkloadSpec;
}

/** Reads the chart's values.yaml and checks it against the chart's values.schema.json, as Helm does. */
export function loadChartValues(text = fs.readFileSync(VALUES_FILE, 'utf8')): ChartValues {
  const values: unknown = YAML.parse(text);
  const schema = JSON.parse(fs.readFileSync(VALUES_SCHEMA_FILE, 'utf8')) as object;
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  if (!validate(values)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`);
    throw new Error(
      `helm/district/values.yaml does not match values.schema.json:\n  - ${problems.join('\n  - ')}`,
    );
  }
  return values as ChartValues;
}

/**
 * The gateway, then every service in file order, each with the defaults laid under it. A key the entry
 * sets replaces the default's key whole — the same rule as the chart's district.workloadSpec helper.
 */
export function resolveWorkloads(values: ChartValues): Workload[] {
  const resolve = (entry: Partial<WorkloadSpec> | null): WorkloadSpec => ({
    ...values.defaults,
    ...(entry ?? {}),
  });
  return [
    { name: 'gateway', gateway: true, spec: resolve(values.gateway) },
    ...Object.entries(values.services).map(([name, entry]) => ({
      name,
      gateway: false,
      spec: resolve(entry),
    })),
  ];
}

/** UPSTREAM_<SERVICE> as the launcher reads it for the gateway (it lower-cases the suffix back to the name). */
export function upstreamVariable(service: string): string {
  return `UPSTREAM_${service.toUpperCase()}`;
}
