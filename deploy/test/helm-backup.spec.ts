import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { CHART_DIR, REPO_ROOT } from '../src/chart-values';
import { TEST_CHART_SECRETS_YAML } from './support/chart-secrets';
import { helmBinary } from './support/tools';

/**
 * The chart's scheduled backup (issue #37 item 3, ADR 0044), rendered by real Helm: absent as shipped; enabled, a
 * CronJob running the image's `--target=backup` into a volume with the hardened context of every pod, DATABASE_URL
 * from the chart's Secret, and a NetworkPolicy that lets it reach DNS and PostgreSQL only; lint clean; every object
 * valid against the Kubernetes API schemas (deploy/scripts/validate-k8s.mjs).
 */
const helm = helmBinary() as string;
const VALIDATOR = path.join(REPO_ROOT, 'deploy/scripts/validate-k8s.mjs');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'district-helm-backup-'));
const secretsFile = path.join(scratch, 'secrets.yaml');
fs.writeFileSync(secretsFile, TEST_CHART_SECRETS_YAML);
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
}

function render(...extra: string[]): { text: string; objects: K8sObject[] } {
  const result = spawnSync(
    helm,
    ['template', 'district', CHART_DIR, '--namespace', 'district', '-f', secretsFile, ...extra],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(result.stderr);
  const objects = YAML.parseAllDocuments(result.stdout)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
  return { text: result.stdout, objects };
}

const find = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);

interface PodSpec {
  restartPolicy: string;
  automountServiceAccountToken: boolean;
  securityContext: Record<string, unknown>;
  containers: Array<{
    args: string[];
    env: Array<{ name: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }>;
    securityContext: Record<string, unknown>;
    resources: { requests: Record<string, string>; limits: Record<string, string> };
    volumeMounts: Array<{ name: string; mountPath: string }>;
  }>;
  volumes: Array<{
    name: string;
    persistentVolumeClaim?: { claimName: string };
    emptyDir?: Record<string, unknown>;
  }>;
}
const podOf = (cronJob: K8sObject) =>
  (cronJob.spec as { jobTemplate: { spec: { template: { spec: PodSpec } } } }).jobTemplate.spec.template.spec;

it('renders no backup objects as shipped', () => {
  const { objects } = render();
  expect(objects.filter((o) => o.metadata.labels?.['app.kubernetes.io/component'] === 'backup')).toEqual([]);
  expect(objects.some((o) => o.kind === 'CronJob' || o.kind === 'PersistentVolumeClaim')).toBe(false);
});

it('enabled: a CronJob runs the image’s backup into the volume, hardened as every pod, with the Secret’s DATABASE_URL', () => {
  const { objects } = render('--set', 'backup.enabled=true', '--set', 'backup.schedule=15 1 * * *');
  const cronJob = find(objects, 'CronJob', 'district-backup') as K8sObject;
  expect(cronJob.spec).toMatchObject({ schedule: '15 1 * * *', concurrencyPolicy: 'Forbid' });
  const pod = podOf(cronJob);
  const deployment = find(objects, 'Deployment', 'identity') as K8sObject;
  const servicePod = (deployment.spec as { template: { spec: PodSpec } }).template.spec;
  expect(pod.restartPolicy).toBe('Never');
  expect(pod.automountServiceAccountToken).toBe(false);
  expect(pod.securityContext).toEqual(servicePod.securityContext);
  const [container] = pod.containers;
  expect(container.args).toEqual(['--target=backup', '--dir=/backups', '--keep=7']);
  expect(container.securityContext).toEqual(servicePod.containers[0].securityContext);
  expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, runAsNonRoot: true });
  expect(container.resources.limits.memory).toBeDefined();
  const databaseUrl = container.env.find((e) => e.name === 'DATABASE_URL');
  expect(databaseUrl?.valueFrom?.secretKeyRef).toEqual(
    servicePod.containers[0].env.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef,
  );
  // No key, no admin password: a backup reads the database only.
  expect(container.env.map((e) => e.name).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL']);
  expect(container.volumeMounts).toEqual([
    { name: 'backups', mountPath: '/backups' },
    { name: 'tmp', mountPath: '/tmp' },
  ]);
  expect(pod.volumes.find((v) => v.name === 'backups')?.persistentVolumeClaim).toEqual({
    claimName: 'district-backups',
  });
  expect(pod.volumes.find((v) => v.name === 'tmp')?.emptyDir).toBeDefined();

  const claim = find(objects, 'PersistentVolumeClaim', 'district-backups') as K8sObject;
  expect(claim.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
  expect(claim.spec).toMatchObject({
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: '10Gi' } },
  });
});

it('enabled: its NetworkPolicy admits nothing and lets it reach DNS and PostgreSQL only', () => {
  const { objects } = render('--set', 'backup.enabled=true');
  const policy = find(objects, 'NetworkPolicy', 'district-backup') as K8sObject;
  const spec = policy.spec as {
    podSelector: { matchLabels: Record<string, string> };
    policyTypes: string[];
    ingress: unknown[];
    egress: Array<{ ports: Array<{ port: number }> }>;
  };
  expect(spec.podSelector.matchLabels['app.kubernetes.io/component']).toBe('backup');
  expect(spec.policyTypes).toEqual(['Ingress', 'Egress']);
  expect(spec.ingress).toEqual([]);
  expect(spec.egress.map((rule) => rule.ports.map((p) => p.port))).toEqual([[53, 53], [5432]]);
  // Without policies, none for it either.
  expect(
    find(
      render('--set', 'backup.enabled=true', '--set', 'networkPolicy.enabled=false').objects,
      'NetworkPolicy',
      'district-backup',
    ),
  ).toBeUndefined();
});

it('enabled with an existing claim, a keep count and a storage class: no claim of its own, those in the command', () => {
  const { objects } = render(
    '--set',
    'backup.enabled=true',
    '--set',
    'backup.persistence.existingClaim=nightly',
    '--set',
    'backup.keep=30',
  );
  expect(objects.some((o) => o.kind === 'PersistentVolumeClaim')).toBe(false);
  const pod = podOf(find(objects, 'CronJob', 'district-backup') as K8sObject);
  expect(pod.volumes.find((v) => v.name === 'backups')?.persistentVolumeClaim).toEqual({
    claimName: 'nightly',
  });
  expect(pod.containers[0].args).toContain('--keep=30');
  const classed = render('--set', 'backup.enabled=true', '--set', 'backup.persistence.storageClass=fast');
  expect(find(classed.objects, 'PersistentVolumeClaim', 'district-backups')?.spec.storageClassName).toBe(
    'fast',
  );
});

it('enabled: lints clean in strict mode, and every object is valid against the Kubernetes API schemas', () => {
  const lint = spawnSync(
    helm,
    ['lint', '--strict', CHART_DIR, '-f', secretsFile, '--set', 'backup.enabled=true'],
    {
      encoding: 'utf8',
    },
  );
  expect(lint.stdout + lint.stderr).toContain('0 chart(s) failed');
  expect(lint.status).toBe(0);
  const { text, objects } = render('--set', 'backup.enabled=true');
  const file = path.join(scratch, 'rendered.yaml');
  fs.writeFileSync(file, text);
  const run = spawnSync(process.execPath, [VALIDATOR, file], { encoding: 'utf8', cwd: REPO_ROOT });
  const report = JSON.parse(run.stdout) as {
    objects: number;
    kinds: Record<string, number>;
    errors: string[];
  };
  expect(report.errors).toEqual([]);
  expect(report.objects).toBe(objects.length);
  expect(report.kinds.CronJob).toBe(1);
  expect(run.status).toBe(0);
});

it('refuses a keep count below one and a schedule that is not cron', () => {
  for (const bad of ['backup.keep=0', 'backup.schedule=daily']) {
    const result = spawnSync(
      helm,
      ['template', 'district', CHART_DIR, '-f', secretsFile, '--set', 'backup.enabled=true', '--set', bad],
      { encoding: 'utf8' },
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('/backup/');
  }
});
