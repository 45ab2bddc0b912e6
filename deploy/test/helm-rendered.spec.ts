import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { REPO_ROOT } from '../src/chart-values';
import { TEST_CHART_SECRETS_YAML } from './support/chart-secrets';
import { helmBinary } from './support/tools';

/**
 * The chart rendered by real Helm with the shipped values and with a production-like values file
 * (helm/district/values-production.yaml), every object validated against the Kubernetes API schemas offline
 * (deploy/scripts/validate-k8s.mjs, kubernetes-models), and the network rules read off the rendered policies.
 */
const CHART = path.join(REPO_ROOT, 'helm/district');
const PRODUCTION = path.join(CHART, 'values-production.yaml');
const VALIDATOR = path.join(REPO_ROOT, 'deploy/scripts/validate-k8s.mjs');
const helm = helmBinary() as string;

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
}
interface Peer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: { matchLabels?: Record<string, string> };
  ipBlock?: { cidr: string; except?: string[] };
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: Array<{ port: number; protocol: string }>;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'district-helm-rendered-'));
const secretsFile = path.join(scratch, 'secrets.yaml');
fs.writeFileSync(secretsFile, TEST_CHART_SECRETS_YAML);
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const SETS: Array<[string, string[]]> = [
  ['the shipped values', ['-f', secretsFile]],
  ['values-production.yaml', ['-f', PRODUCTION]],
];

function render(extra: string[]): { text: string; objects: K8sObject[] } {
  const result = spawnSync(helm, ['template', 'district', CHART, '--namespace', 'district', ...extra], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(result.stderr);
  const objects = YAML.parseAllDocuments(result.stdout)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
  return { text: result.stdout, objects };
}

/** The rendered objects checked against the Kubernetes API schemas offline (validate-k8s.mjs, a child process). */
function validate(
  text: string,
  name: string,
): { status: number | null; report: { objects: number; kinds: Record<string, number>; errors: string[] } } {
  const file = path.join(scratch, `rendered-${name.replace(/\W+/g, '_')}.yaml`);
  fs.writeFileSync(file, text);
  const run = spawnSync(process.execPath, [VALIDATOR, file], { encoding: 'utf8', cwd: REPO_ROOT });
  return {
    status: run.status,
    report: JSON.parse(run.stdout) as { objects: number; kinds: Record<string, number>; errors: string[] },
  };
}

const component = (peer: Peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/component'];
type IngressPath = {
  path: string;
  pathType: string;
  backend: { service: { name: string; port: { name: string } } };
};
const ingressPaths = (objects: K8sObject[]) =>
  (objects.find((o) => o.kind === 'Ingress')?.spec.rules as Array<{ http: { paths: IngressPath[] } }>).map(
    (r) => r.http.paths,
  );
const sourcesOf = (objects: K8sObject[], name: string) =>
  (
    objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === name)?.spec as { ingress: Rule[] }
  ).ingress.flatMap((r) => r.from ?? []);
const ingressController = (peer: Peer) =>
  peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'ingress-nginx';

describe.each(SETS)('the chart rendered by helm %s', (_, extra) => {
  const { text, objects } = render(extra);
  const policies = new Map(
    objects
      .filter((o) => o.kind === 'NetworkPolicy')
      .map((o) => [o.metadata.name, o.spec as { ingress: Rule[]; egress: Rule[]; policyTypes: string[] }]),
  );
  const workloads = objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name);

  it('lints clean in strict mode', () => {
    const lint = spawnSync(helm, ['lint', '--strict', CHART, ...extra], { encoding: 'utf8' });
    expect(lint.stdout + lint.stderr).toContain('0 chart(s) failed');
  });

  it('renders only objects valid against the Kubernetes API schemas', () => {
    const { status, report } = validate(text, extra.join('-'));
    expect(report.errors).toEqual([]);
    expect(report.objects).toBe(objects.length);
    expect(report.kinds.Deployment).toBe(workloads.length);
    expect(status).toBe(0);
  });

  it('gives every workload a NetworkPolicy for both directions', () => {
    expect([...policies.keys()].sort()).toEqual([...workloads].sort());
    for (const p of policies.values()) expect(p.policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it('lets only the gateway reach the services, and only the ingress controller (and Prometheus) reach the gateway', () => {
    for (const [name, p] of policies) {
      const sources = p.ingress.flatMap((r) => r.from ?? []);
      if (name === 'gateway') {
        expect(
          sources.some(
            (s) => s.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'ingress-nginx',
          ),
        ).toBe(true);
        expect(sources.every((s) => component(s) === undefined)).toBe(true);
      } else {
        const pods = sources.filter((s) => s.podSelector && !s.namespaceSelector);
        expect(pods.map(component)).toEqual(['gateway']);
      }
      expect(sources.some((s) => s.ipBlock)).toBe(false);
    }
  });

  it('lets the services reach only DNS and the datastores, the gateway the services too, and classroom public addresses on 80/443', () => {
    for (const [name, p] of policies) {
      const ports = p.egress.map((r) =>
        (r.ports ?? [])
          .map((x) => x.port)
          .sort((a, b) => a - b)
          .join(','),
      );
      const expected = [
        '53,53',
        ...(name === 'gateway' ? ['3000'] : []),
        '5432',
        '4222',
        '6379',
        ...(name === 'classroom' ? ['80,443'] : []),
      ];
      expect(ports).toEqual(expected);
      const open = p.egress.flatMap((r) => r.to ?? []).filter((t) => t.ipBlock);
      if (name === 'classroom') {
        for (const block of open) expect(block.ipBlock?.except?.length).toBeGreaterThan(0);
        expect(open.flatMap((b) => b.ipBlock?.except ?? [])).toEqual(
          expect.arrayContaining([
            '10.0.0.0/8',
            '169.254.0.0/16',
            '127.0.0.0/8',
            '172.16.0.0/12',
            '192.168.0.0/16',
            'fc00::/7',
          ]),
        );
      } else {
        expect(open).toEqual([]);
      }
    }
  });

  it('runs every pod hardened, and keeps long proxy timeouts on the Ingress for chat WebSockets', () => {
    const ingress = objects.find((o) => o.kind === 'Ingress') as K8sObject & {
      metadata: { annotations: Record<string, string> };
    };
    expect(
      Number(ingress.metadata.annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']),
    ).toBeGreaterThanOrEqual(3600);
    for (const d of objects.filter((o) => o.kind === 'Deployment')) {
      const pod = (
        d.spec.template as {
          spec: {
            securityContext: Record<string, unknown>;
            containers: Array<{ securityContext: Record<string, unknown> }>;
          };
        }
      ).spec;
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      for (const c of pod.containers)
        expect(c.securityContext).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
    }
  });
});

describe('where /ws goes', () => {
  it('as shipped: through the gateway, and chat is reached only from it (ADR 0030)', () => {
    const { objects } = render(['-f', secretsFile]);
    for (const paths of ingressPaths(objects)) {
      expect(paths.map((p) => [p.path, p.backend.service.name])).toEqual([['/', 'gateway']]);
    }
    expect(sourcesOf(objects, 'chat').some(ingressController)).toBe(false);
  });

  it('in production: straight to chat at the Ingress, so the gateway holds no chat socket (issue #37 §7)', () => {
    const { objects } = render(['-f', PRODUCTION]);
    for (const paths of ingressPaths(objects))
      expect(paths.map((p) => [p.path, p.backend.service.name])).toEqual([
        ['/ws', 'chat'],
        ['/', 'gateway'],
      ]);
    expect(sourcesOf(objects, 'chat').some(ingressController)).toBe(true);
  });
});

describe('ingress.webSocketToChat (ADR 0030)', () => {
  it('sends /ws (exactly) straight to chat ahead of the gateway’s catch-all, on every host, and lets only chat be reached from the ingress controller besides the gateway', () => {
    const { text, objects } = render([
      '-f',
      PRODUCTION,
      '--set',
      'ingress.webSocketToChat=true',
      '--set',
      'ingress.hosts={a.example,b.example}',
    ]);
    expect(validate(text, 'websocket-to-chat').report.errors).toEqual([]);

    const rules = ingressPaths(objects);
    expect(rules).toHaveLength(2);
    for (const paths of rules)
      expect(
        paths.map((p) => [p.path, p.pathType, p.backend.service.name, p.backend.service.port.name]),
      ).toEqual([
        ['/ws', 'Exact', 'chat', 'http'],
        ['/', 'Prefix', 'gateway', 'http'],
      ]);
    const chat = sourcesOf(objects, 'chat');
    expect(chat.some(ingressController)).toBe(true);
    expect(chat.filter((s) => s.podSelector && !s.namespaceSelector).map(component)).toEqual(['gateway']);
    for (const name of ['identity', 'content', 'assessment', 'classroom'])
      expect(sourcesOf(objects, name).some(ingressController)).toBe(false);
  });

  it('refuses to render without the chat service', () => {
    expect(() =>
      render(['-f', PRODUCTION, '--set', 'ingress.webSocketToChat=true', '--set', 'services.chat=null']),
    ).toThrow(/ingress.webSocketToChat needs the chat service/);
  });
});

describe('values-production.yaml', () => {
  it('autoscales chat on CPU and open connections per pod, and scales in one pod a minute', () => {
    const chat = render(['-f', PRODUCTION]).objects.find(
      (o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === 'chat',
    ) as K8sObject;
    expect(chat.spec.metrics).toEqual([
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } },
      },
      {
        type: 'Pods',
        pods: {
          metric: { name: 'chat_connections' },
          target: { type: 'AverageValue', averageValue: '2000' },
        },
      },
    ]);
    expect(chat.spec.behavior).toMatchObject({
      scaleDown: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
    });
  });

  it('reads every secret from the operator’s Secret and renders none itself', () => {
    const { objects } = render(['-f', PRODUCTION]);
    expect(objects.some((o) => o.kind === 'Secret')).toBe(false);
    expect(JSON.stringify(objects)).toContain('"name":"district-runtime"');
  });
});

describe('monitoring (values-production.yaml)', () => {
  const { objects } = render(['-f', PRODUCTION]);
  const rule = objects.find((o) => o.kind === 'PrometheusRule') as K8sObject;
  const dashboard = objects.find(
    (o) => o.kind === 'ConfigMap' && o.metadata.name === 'district-grafana-dashboard',
  ) as K8sObject & {
    data: Record<string, string>;
  };
  const rules = (rule.spec.groups as Array<{ rules: Array<{ alert: string; expr: string }> }>).flatMap(
    (g) => g.rules,
  );

  /** Every metric name the code registers (prom-client's `name: '…'`, and the per-durable gauges' helper). */
  const registered = (() => {
    const names = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
          for (const m of fs
            .readFileSync(file, 'utf8')
            .matchAll(/(?:name:\s*|perDurable\(\s*)'([a-z][a-z0-9_]*)'/g))
            names.add(m[1]);
      }
    };
    for (const root of [
      'libs/nest-common/src',
      'gateway/src',
      ...fs.readdirSync(path.join(REPO_ROOT, 'services')).map((s) => `services/${s}/src`),
    ])
      if (fs.existsSync(path.join(REPO_ROOT, root))) walk(path.join(REPO_ROOT, root));
    return names;
  })();
  const metricsIn = (expr: string) =>
    [...expr.matchAll(/\b([a-z][a-z0-9_]*)\{/g)]
      .map((m) => m[1].replace(/_(count|bucket|sum)$/, ''))
      .filter((n) => !['by', 'rate', 'sum', 'max', 'min'].includes(n));

  it('alerts on outbox backlog, consumer lag, redeliveries, the 5xx ratio, readiness and a dependency away', () => {
    expect(rule.metadata.labels).toMatchObject({ release: 'kube-prometheus-stack' });
    expect(rules.map((r) => r.alert).sort()).toEqual(
      [
        'DistrictConsumerLagGrowing',
        'DistrictDependencyDown',
        'DistrictHighErrorRate',
        'DistrictOutboxBacklogGrowing',
        'DistrictRedeliveries',
        'DistrictReplicaNotReady',
        'DistrictServiceDown',
      ].sort(),
    );
    for (const r of rules) expect(r.expr).toContain('namespace="district"');
  });

  it('uses only metrics the services and the gateway really export, in the rules and the dashboard', () => {
    expect(registered.size).toBeGreaterThan(8);
    const panels = (
      JSON.parse(dashboard.data['district.json']) as { panels: Array<{ targets: Array<{ expr: string }> }> }
    ).panels;
    const used = [
      ...rules.map((r) => r.expr),
      ...panels.flatMap((p) => p.targets.map((t) => t.expr)),
    ].flatMap(metricsIn);
    expect(used.length).toBeGreaterThan(10);
    for (const name of new Set(used)) expect([name, registered.has(name)]).toEqual([name, true]);
  });

  it('ships the dashboard for Grafana’s sidecar, and neither object unless asked', () => {
    expect(dashboard.metadata.labels).toMatchObject({ grafana_dashboard: '1' });
    const shipped = render(['-f', secretsFile]).objects;
    expect(
      shipped.some((o) => o.kind === 'PrometheusRule' || o.metadata.name === 'district-grafana-dashboard'),
    ).toBe(false);
  });
});

describe('oidc: the district’s OpenID Connect provider, passed to identity', () => {
  interface EnvVar {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
  }
  const envOf = (objects: K8sObject[]) =>
    new Map(
      objects
        .filter((o) => o.kind === 'Deployment')
        .map((d) => [
          d.metadata.name,
          (d.spec.template as { spec: { containers: Array<{ env?: EnvVar[] }> } }).spec.containers.flatMap(
            (c) => c.env ?? [],
          ),
        ]),
    );
  const oidcEnv = (env: EnvVar[]) => env.filter((e) => e.name.startsWith('OIDC_'));
  /** Each egress rule of a workload's policy: its ports, and whether it opens public addresses. */
  const egressOf = (objects: K8sObject[], name: string) =>
    (
      objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === name)?.spec as { egress: Rule[] }
    ).egress.map((r) => ({
      ports: (r.ports ?? []).map((p) => p.port).sort((a, b) => a - b),
      blocks: (r.to ?? []).flatMap((t) => (t.ipBlock ? [t.ipBlock] : [])),
    }));
  const opensPort = (objects: K8sObject[], name: string, port: number) =>
    egressOf(objects, name).some((r) => r.ports.includes(port));
  const GOOGLE = [
    '--set',
    'oidc.issuer=https://accounts.google.com',
    '--set',
    'oidc.clientId=123-abc.apps.googleusercontent.com',
    '--set',
    'oidc.existingSecret=district-oidc',
  ];

  it.each(SETS)('is off with %s: no OIDC_* variable anywhere and no 443 egress for identity', (_, extra) => {
    const { objects } = render(extra);
    for (const [name, env] of envOf(objects)) expect([name, oidcEnv(env)]).toEqual([name, []]);
    expect(opensPort(objects, 'identity', 443)).toBe(false);
  });

  it('set, gives identity alone the issuer, the client id and the client secret from the operator’s Secret', () => {
    const { text, objects } = render(['-f', PRODUCTION, ...GOOGLE]);
    expect(validate(text, 'oidc').report.errors).toEqual([]);
    const env = envOf(objects);
    expect(oidcEnv(env.get('identity') ?? [])).toEqual([
      { name: 'OIDC_ISSUER', value: 'https://accounts.google.com' },
      { name: 'OIDC_CLIENT_ID', value: '123-abc.apps.googleusercontent.com' },
      {
        name: 'OIDC_CLIENT_SECRET',
        valueFrom: { secretKeyRef: { name: 'district-oidc', key: 'client-secret' } },
      },
    ]);
    for (const [name, vars] of env)
      if (name !== 'identity') expect([name, oidcEnv(vars)]).toEqual([name, []]);
    // Nothing of it in a ConfigMap, and no Secret made by the chart.
    for (const o of objects.filter((x) => x.kind === 'ConfigMap' || x.kind === 'Secret'))
      expect(JSON.stringify(o)).not.toMatch(/OIDC|googleusercontent/);
  });

  it('set, reads the client secret from the key oidc.existingSecretKey names, and needs no Secret (a public client)', () => {
    const keyed = envOf(
      render(['-f', PRODUCTION, ...GOOGLE, '--set', 'oidc.existingSecretKey=secret']).objects,
    );
    expect(oidcEnv(keyed.get('identity') ?? []).find((e) => e.name === 'OIDC_CLIENT_SECRET')).toEqual({
      name: 'OIDC_CLIENT_SECRET',
      valueFrom: { secretKeyRef: { name: 'district-oidc', key: 'secret' } },
    });
    const publicClient = envOf(render(['-f', PRODUCTION, ...GOOGLE.slice(0, 4)]).objects);
    expect(oidcEnv(publicClient.get('identity') ?? []).map((e) => e.name)).toEqual([
      'OIDC_ISSUER',
      'OIDC_CLIENT_ID',
    ]);
  });

  it.each(SETS)(
    'set over %s, opens public addresses on 443 (only) to identity, and nothing new to any other workload',
    (_, extra) => {
      const off = render(extra).objects;
      const on = render([...extra, ...GOOGLE]).objects;
      const rules = egressOf(on, 'identity');
      expect(rules.slice(0, -1)).toEqual(egressOf(off, 'identity'));
      const added = rules[rules.length - 1];
      expect(added.ports).toEqual([443]);
      expect(added.blocks.map((b) => b.cidr)).toEqual(['0.0.0.0/0', '::/0']);
      expect(added.blocks.flatMap((b) => b.except ?? [])).toEqual(
        expect.arrayContaining([
          '10.0.0.0/8',
          '100.64.0.0/10',
          '127.0.0.0/8',
          '169.254.0.0/16',
          '172.16.0.0/12',
          '192.168.0.0/16',
          'fc00::/7',
          'fe80::/10',
        ]),
      );
      for (const name of ['gateway', 'content', 'chat', 'assessment', 'classroom'])
        expect([name, egressOf(on, name)]).toEqual([name, egressOf(off, name)]);
    },
  );

  it.each([
    [
      'an http issuer',
      ['--set', 'oidc.issuer=http://accounts.google.com', '--set', 'oidc.clientId=x'],
      /oidc\/issuer'?: 'http:\/\/accounts\.google\.com' does not match pattern/,
    ],
    [
      'an issuer without a client id',
      ['--set', 'oidc.issuer=https://accounts.google.com'],
      /oidc\/clientId'?: minLength/,
    ],
  ])('refuses %s by the schema, in helm template and helm lint', (_, set, message) => {
    expect(() => render(['-f', PRODUCTION, ...set])).toThrow(message);
    const lint = spawnSync(helm, ['lint', '--strict', CHART, '-f', PRODUCTION, ...set], { encoding: 'utf8' });
    expect(lint.status).not.toBe(0);
    expect(lint.stdout + lint.stderr).toMatch(message);
  });

  it('refuses to render an issuer without the identity service', () => {
    expect(() => render(['-f', PRODUCTION, ...GOOGLE, '--set', 'services.identity=null'])).toThrow(
      /oidc.issuer needs the identity service in services/,
    );
  });
});
