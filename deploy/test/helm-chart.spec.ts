import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import {
  CHART_DIR,
  loadChartValues,
  REPO_ROOT,
  resolveWorkloads,
  upstreamVariable,
  type ChartValues,
} from '../src/chart-values';
import { blockProblems, definedTemplates, includedTemplates, valuesPaths } from './support/go-template';
import { plannedLines, withPlannedServices } from './support/planned-services';
import { TEST_CHART_SECRETS_YAML } from './support/chart-secrets';
import { helmBinary } from './support/tools';

/** The planned services, kept as `#> ` lines in values.yaml until each is registered in the launcher. */
const PLANNED: string[] = [];
/** Of those, the ones whose planned entry autoscales (the services that take bursts). */
const PLANNED_AUTOSCALED: string[] = [];
/** The registered services that autoscale as shipped. */
const AUTOSCALED = ['chat', 'assessment', 'gateway'];

const templatesDir = path.join(CHART_DIR, 'templates');
const templateFiles = fs.readdirSync(templatesDir).sort();
const templateText = (file: string) => fs.readFileSync(path.join(templatesDir, file), 'utf8');
const valuesText = fs.readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8');
const values = loadChartValues(valuesText);
const rawValues = YAML.parse(valuesText) as Record<string, unknown>;
/** values.yaml with the planned entries enabled: the chart as it will be. */
const plannedText = withPlannedServices(valuesText);
const planned = loadChartValues(plannedText);
const autoscaled = (v: ChartValues) =>
  resolveWorkloads(v)
    .filter((w) => w.spec.hpa.enabled)
    .map((w) => w.name)
    .sort();

describe('Chart.yaml', () => {
  const chart = YAML.parse(fs.readFileSync(path.join(CHART_DIR, 'Chart.yaml'), 'utf8')) as Record<
    string,
    string
  >;

  it('is a Helm 3 application chart named district with semantic versions', () => {
    expect(chart.apiVersion).toBe('v2');
    expect(chart.name).toBe('district');
    expect(chart.type).toBe('application');
    expect(chart.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    expect(typeof chart.appVersion).toBe('string');
    expect(chart.description).toBeTruthy();
  });
});

describe('values.yaml', () => {
  it('matches values.schema.json (the schema Helm itself applies on lint, template and install)', () => {
    expect(() => loadChartValues(valuesText)).not.toThrow();
  });

  it.each([
    ['an unknown top-level key', { ...rawValues, ingres: {} }],
    ['a service name that is not a DNS label', { ...rawValues, services: { Chat_Room: {} } }],
    [
      'a dashed service name (UPSTREAM_<NAME> would not map back)',
      { ...rawValues, services: { 'lesson-plans': {} } },
    ],
    ['a service named like the infrastructure', { ...rawValues, services: { postgres: {} } }],
    ['an HPA without bounds', { ...rawValues, services: { chat: { hpa: { enabled: true } } } }],
    ['a misspelt workload key', { ...rawValues, services: { chat: { replica: 2 } } }],
    [
      'a public URL with a path',
      { ...rawValues, config: { ...(rawValues.config as object), publicUrl: 'https://x/y' } },
    ],
    [
      'an OpenID Connect issuer over plain http',
      {
        ...rawValues,
        oidc: { ...(rawValues.oidc as object), issuer: 'http://accounts.google.com', clientId: 'x' },
      },
    ],
    [
      'an OpenID Connect issuer without a client id',
      { ...rawValues, oidc: { ...(rawValues.oidc as object), issuer: 'https://accounts.google.com' } },
    ],
    ['a misspelt oidc key', { ...rawValues, oidc: { ...(rawValues.oidc as object), clientSecret: 'x' } }],
  ])('is refused by the schema with %s', (_, broken) => {
    expect(() => loadChartValues(YAML.stringify(broken))).toThrow(/values.schema.json/);
  });

  // That the map holds exactly the launcher's services is deploy/test/service-list.spec.ts.
  it('keeps the planned services as valid entries to enable, none of them enabled yet', () => {
    // Every planned service is registered now (classroom was the last): no `#> ` lines are left.
    expect(plannedLines(valuesText).length > 0).toBe(PLANNED.length > 0);
    for (const name of PLANNED) expect([name, name in values.services]).toEqual([name, false]);
    expect(Object.keys(planned.services)).toEqual([...Object.keys(values.services), ...PLANNED]);
    for (const name of Object.keys(values.services))
      expect(planned.services[name]).toEqual(values.services[name]);
  });

  it('has an entry for every service folder of the repository (services/<name>)', () => {
    const folders = fs
      .readdirSync(path.join(REPO_ROOT, 'services'), { withFileTypes: true })
      .filter(
        (entry) =>
          entry.isDirectory() && fs.existsSync(path.join(REPO_ROOT, 'services', entry.name, 'package.json')),
      )
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) expect(Object.keys(values.services)).toContain(folder);
  });

  it('autoscales chat and assessment as shipped, and the planned ones that ask for it once enabled', () => {
    expect(values.defaults.hpa.enabled).toBe(false);
    expect(autoscaled(values)).toEqual([...AUTOSCALED].sort());
    expect(autoscaled(planned)).toEqual([...AUTOSCALED, ...PLANNED_AUTOSCALED].sort());
    for (const { name, spec } of resolveWorkloads(planned)) {
      if (spec.hpa.enabled) {
        expect([name, spec.hpa.minReplicas]).toEqual([name, expect.any(Number)]);
        expect(spec.hpa.minReplicas).toBeGreaterThanOrEqual(2);
        expect(spec.hpa.maxReplicas).toBeGreaterThan(spec.hpa.minReplicas ?? 0);
      }
    }
  });

  it.each([
    ['as shipped', values],
    ['with the planned services', planned],
  ])('signs tokens in identity alone (%s)', (_, v) => {
    const signers = resolveWorkloads(v)
      .filter((w) => w.spec.signsTokens)
      .map((w) => w.name);
    expect(signers).toEqual(['identity']);
  });

  it('gives every workload resource requests and a memory limit, the planned ones too', () => {
    for (const { name, spec } of resolveWorkloads(planned)) {
      expect([
        name,
        spec.resources.requests?.cpu,
        spec.resources.requests?.memory,
        spec.resources.limits?.memory,
      ]).toEqual([name, expect.anything(), expect.anything(), expect.anything()]);
    }
  });

  it('hardens pods: non-root, read-only root, no capabilities, RuntimeDefault seccomp', () => {
    const pod = rawValues.podSecurityContext as Record<string, unknown>;
    const container = rawValues.containerSecurityContext as Record<string, unknown>;
    expect(pod).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.runAsUser).not.toBe(0);
    expect(container).toMatchObject({
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('keeps the district’s sign-in off, and accepts an https issuer with a client id and a Secret name', () => {
    expect(rawValues.oidc).toEqual({
      issuer: '',
      clientId: '',
      existingSecret: '',
      existingSecretKey: 'client-secret',
    });
    const google = {
      issuer: 'https://accounts.google.com',
      clientId: '123-abc.apps.googleusercontent.com',
      existingSecret: 'district-oidc',
      existingSecretKey: 'client-secret',
    };
    expect(() => loadChartValues(YAML.stringify({ ...rawValues, oidc: google }))).not.toThrow();
  });

  it('keeps demo mode off and no secret in the chart defaults', () => {
    expect(values.config.demo).toBe(false);
    const secrets = rawValues.secrets as Record<string, string>;
    for (const [key, value] of Object.entries(secrets)) expect([key, value]).toEqual([key, '']);
  });

  it('keeps WebSockets open through the nginx ingress for an hour', () => {
    const annotations = (rawValues.ingress as { annotations: Record<string, string> }).annotations;
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(
      3600,
    );
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-send-timeout'])).toBeGreaterThanOrEqual(
      3600,
    );
  });

  it('probes /healthz for liveness and /readyz for readiness', () => {
    expect(values.probes.liveness.path).toBe('/healthz');
    expect(values.probes.readiness.path).toBe('/readyz');
  });
});

describe('templates (read as text: there is no helm binary to render them here)', () => {
  it('include _helpers.tpl, NOTES.txt and one file per kind of object', () => {
    expect(templateFiles).toEqual(
      expect.arrayContaining([
        '_helpers.tpl',
        'NOTES.txt',
        'configmap.yaml',
        'secret.yaml',
        'deployments.yaml',
      ]),
    );
    const all = templateFiles.map(templateText).join('\n');
    for (const kind of [
      'Deployment',
      'Service',
      'HorizontalPodAutoscaler',
      'PodDisruptionBudget',
      'Ingress',
      'Secret',
      'ConfigMap',
    ]) {
      expect(all).toMatch(new RegExp(`^kind: ${kind}$`, 'm'));
    }
  });

  it.each(templateFiles)('%s opens and closes its blocks in order', (file) => {
    expect(blockProblems(templateText(file))).toEqual([]);
  });

  it('catches an unclosed block (the nesting check has teeth)', () => {
    expect(blockProblems('{{- if .Values.a }}\n{{- range .Values.b }}\nx\n{{- end }}\n')).toEqual([
      'line 1: "if .Values.a" is never closed',
    ]);
    expect(blockProblems('{{ end }}')).toEqual(['line 1: end without an open block']);
  });

  it.each(templateFiles)('%s reads only values that values.yaml defines', (file) => {
    for (const dotted of valuesPaths(templateText(file))) {
      let node: unknown = rawValues;
      for (const key of dotted.split('.')) {
        expect([dotted, node !== null && typeof node === 'object' && key in node]).toEqual([dotted, true]);
        node = (node as Record<string, unknown>)[key];
      }
    }
  });

  it('flags a read of a value that does not exist (the lookup check has teeth)', () => {
    const read = valuesPaths('{{ if $root.Values.ingres.enabled }}{{ .root.Values.port }}{{ end }}');
    expect(read.sort()).toEqual(['ingres.enabled', 'port']);
    expect('ingres' in rawValues).toBe(false);
    expect(templateFiles.flatMap((f) => valuesPaths(templateText(f)))).toEqual(
      expect.arrayContaining(['secrets.existingSecret', 'ingress.annotations', 'defaults']),
    );
  });

  it('include only templates that _helpers.tpl defines', () => {
    const defined = new Set(templateFiles.flatMap((f) => definedTemplates(templateText(f))));
    for (const file of templateFiles) {
      for (const name of includedTemplates(templateText(file)))
        expect([file, name, defined.has(name)]).toEqual([file, name, true]);
    }
  });

  it('label every object with the app.kubernetes.io set and select on the stable part only', () => {
    const helpers = templateText('_helpers.tpl');
    for (const label of ['name', 'instance', 'component', 'version', 'managed-by', 'part-of']) {
      expect(helpers).toContain(`app.kubernetes.io/${label}:`);
    }
    const selector = /define "district.selectorLabels"[\s\S]*?\{\{- end -\}\}/.exec(helpers)?.[0] ?? '';
    expect(selector).not.toContain('version');
    for (const file of [
      'deployments.yaml',
      'services.yaml',
      'pdb.yaml',
      'hpa.yaml',
      'configmap.yaml',
      'secret.yaml',
      'ingress.yaml',
    ]) {
      expect([file, templateText(file).includes('include "district.labels"')]).toEqual([file, true]);
    }
  });

  it('give the containers every variable the compose file gives them, keys included', () => {
    const deployments = templateText('deployments.yaml');
    const configmap = templateText('configmap.yaml');
    for (const key of [
      'DATABASE_URL',
      'NATS_URL',
      'REDIS_URL',
      'AUTH_PUBLIC_KEY',
      'AUTH_PRIVATE_KEY',
      'ADMIN_EMAIL',
      'ADMIN_PASSWORD',
    ]) {
      expect(deployments).toContain(`"key" "${key}"`);
      expect(templateText('secret.yaml')).toContain(`${key}:`);
    }
    for (const key of ['PORT', 'PUBLIC_URL', 'DEMO', 'LOG_LEVEL'])
      expect(configmap).toMatch(new RegExp(`^  ${key}: `, 'm'));
    expect(deployments).toContain('include "district.upstreamEnv"');
    expect(templateText('_helpers.tpl')).toContain('UPSTREAM_{{ $name | upper }}');
    expect(upstreamVariable('assessment')).toBe('UPSTREAM_ASSESSMENT');
    expect(configmap).toMatch(/^ {2}HOST: "0\.0\.0\.0"$/m);
  });

  it('run each workload with probes, resources, the hardened context and --target=<name>', () => {
    const deployments = templateText('deployments.yaml');
    for (const needle of [
      'livenessProbe:',
      'readinessProbe:',
      'startupProbe:',
      'toYaml $spec.resources',
      'toYaml $root.Values.containerSecurityContext',
      'toYaml $root.Values.podSecurityContext',
      '- --target={{ $name }}',
      'automountServiceAccountToken: false',
    ]) {
      expect(deployments).toContain(needle);
    }
  });
});

const helm = helmBinary();

describe(`helm lint + helm template (${helm})`, () => {
  const secretsFile = path.join(os.tmpdir(), `district-helm-secrets-${process.pid}.yaml`);
  const plannedFile = path.join(os.tmpdir(), `district-helm-planned-${process.pid}.yaml`);
  const run = (...args: string[]) => spawnSync(helm as string, args, { encoding: 'utf8', cwd: REPO_ROOT });
  const render = (...extra: string[]) => {
    const result = run('template', 'district', CHART_DIR, '--namespace', 'district', ...extra);
    if (result.status !== 0) throw new Error(result.stderr);
    return YAML.parseAllDocuments(result.stdout)
      .map(
        (d) => d.toJS() as { kind: string; metadata: { name: string }; spec: Record<string, unknown> } | null,
      )
      .filter((o): o is NonNullable<typeof o> => o !== null);
  };

  beforeAll(() => {
    fs.writeFileSync(plannedFile, plannedText);
    fs.writeFileSync(secretsFile, TEST_CHART_SECRETS_YAML);
  });
  afterAll(() => {
    fs.rmSync(secretsFile, { force: true });
    fs.rmSync(plannedFile, { force: true });
  });

  it.each([
    ['as shipped', [] as string[]],
    ['with the planned services', ['-f', plannedFile]],
  ])('lints clean in strict mode (%s)', (_, extra) => {
    const result = run('lint', '--strict', CHART_DIR, ...extra, '-f', secretsFile);
    expect(result.stdout + result.stderr).toContain('0 chart(s) failed');
    expect(result.status).toBe(0);
  });

  it.each([
    ['as shipped', values, [] as string[]],
    ['with the planned services', planned, ['-f', plannedFile]],
  ])(
    'renders a Deployment, Service and PDB per workload, HPAs exactly where an entry enables one (%s)',
    (_, v, extra) => {
      const objects = render(...extra, '-f', secretsFile);
      const names = (kind: string) =>
        objects
          .filter((o) => o.kind === kind)
          .map((o) => o.metadata.name)
          .sort();
      const workloads = ['gateway', ...Object.keys(v.services)].sort();
      expect(names('Deployment')).toEqual(workloads);
      expect(names('Service')).toEqual(workloads);
      expect(names('PodDisruptionBudget')).toEqual(workloads);
      expect(names('HorizontalPodAutoscaler')).toEqual(autoscaled(v));
      expect(names('Ingress')).toEqual(['district']);
      expect(names('Secret')).toEqual(['district-secrets']);
    },
  );

  it('renders HPAs for the gateway, chat and assessment, and only them, with the planned services', () => {
    const hpas = render('-f', plannedFile, '-f', secretsFile).filter(
      (o) => o.kind === 'HorizontalPodAutoscaler',
    );
    expect(hpas.map((o) => o.metadata.name).sort()).toEqual([...AUTOSCALED, ...PLANNED_AUTOSCALED].sort());
    for (const hpa of hpas) {
      const entry = resolveWorkloads(planned).find((w) => w.name === hpa.metadata.name)?.spec.hpa;
      expect(hpa.spec).toMatchObject({
        scaleTargetRef: { kind: 'Deployment', name: hpa.metadata.name },
        minReplicas: entry?.minReplicas,
        maxReplicas: entry?.maxReplicas,
      });
    }
  });

  it('gives every service SHUTDOWN_DRAIN_MS from shutdownDrainSeconds, refusing a drain the grace period cannot hold', () => {
    type Deployment = {
      kind: string;
      metadata: { name: string };
      spec: {
        template: {
          spec: {
            terminationGracePeriodSeconds: number;
            containers: Array<{ env: Array<{ name: string; value?: string }> }>;
          };
        };
      };
    };
    const drains = (...extra: string[]) =>
      Object.fromEntries(
        (render('-f', secretsFile, ...extra) as unknown as Deployment[])
          .filter((o) => o.kind === 'Deployment')
          .map((d) => [
            d.metadata.name,
            d.spec.template.spec.containers[0].env.find((e) => e.name === 'SHUTDOWN_DRAIN_MS')?.value,
          ]),
      );
    expect(drains()).toEqual({
      gateway: undefined,
      ...Object.fromEntries(Object.keys(values.services).map((s) => [s, '4000'])),
    });
    expect(drains('--set', 'shutdownDrainSeconds=12').chat).toBe('12000');
    // identity's grace period is 30 s (chat's 60): a 30 s drain leaves no time to close.
    expect(() => render('-f', secretsFile, '--set', 'shutdownDrainSeconds=30')).toThrow(
      /shutdownDrainSeconds \(30\) must be less than \w+'s terminationGracePeriodSeconds \(30\)/,
    );
    expect(() => render('-f', secretsFile, '--set', 'shutdownDrainSeconds=61')).toThrow(
      /shutdownDrainSeconds/,
    );
  });

  it('refuses to render without secrets, and renders no Secret with existingSecret', () => {
    expect(() => render()).toThrow(/secrets\.databaseUrl is required/);
    const objects = render('--set', 'secrets.existingSecret=district-external');
    expect(objects.some((o) => o.kind === 'Secret')).toBe(false);
  });
});
