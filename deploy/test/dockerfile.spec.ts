import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Copy, Healthcheck } from 'dockerfile-ast';
import { REPO_ROOT } from '../src/chart-values';
import { dockerfileProblems, execForm, parseStages } from './support/dockerfile-rules';

const dockerfile = fs.readFileSync(path.join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8');
const stages = parseStages(dockerfile);
const final = stages[stages.length - 1];
const find = (keyword: string, stage = final) => stage.instructions.filter((i) => i.getKeyword() === keyword);

describe('deploy/Dockerfile', () => {
  it('passes every image rule: multi-stage, pinned bases, non-root, HEALTHCHECK, no ADD, no secrets', () => {
    expect(dockerfileProblems(dockerfile)).toEqual([]);
  });

  it('builds every stage on one exact Node release, the one image-node.mjs fetches for CI to test', () => {
    expect(stages.map((s) => s.image)).toEqual(stages.map(() => 'node:24.22.3-bookworm-slim'));
    expect(final.name).toBe('runtime');
    const read = (text?: string) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `const m = await import(${JSON.stringify(path.join(REPO_ROOT, 'deploy/scripts/image-node.mjs'))});` +
              `console.log(JSON.stringify(m.imageNodeVersion(${text === undefined ? '' : JSON.stringify(text)})))`,
          ],
          { encoding: 'utf8' },
        ),
      ) as { major: number; exact?: string };
    expect(read()).toEqual({ major: 24, exact: '24.22.3' });
    // With the digest after the tag (ADR 0045), and a tag of the major only.
    const digest = 'a'.repeat(64);
    expect(read(`ARG NODE_IMAGE=node:24.22.3-bookworm-slim@sha256:${digest}\n`)).toEqual({
      major: 24,
      exact: '24.22.3',
    });
    expect(read('ARG NODE_IMAGE=node:24-bookworm-slim\n')).toEqual({ major: 24 });
  });

  it('installs with npm ci across the workspaces, builds the SPA and the runtime tree in the build stage', () => {
    const runs = stages.flatMap((s) => find('RUN', s)).map((i) => i.getArgumentsContent() ?? '');
    expect(runs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^npm ci\b/),
        'npm run build -w web',
        'npm run build:runtime -w deploy -- --out /runtime',
      ]),
    );
    // The manifests stage keeps the root's postinstall script, which `npm ci` runs.
    const manifests = stages.find((s) => s.name === 'manifests');
    const postinstall = (
      JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts.postinstall;
    const kept = postinstall.match(/^node (\S+)$/)?.[1];
    expect(kept).toBeDefined();
    expect(
      find('RUN', manifests)
        .map((i) => i.getArgumentsContent() ?? '')
        .join('\n'),
    ).toContain(`! -path ./${kept}`);
    const deployManifest = JSON.parse(
      fs.readFileSync(path.join(REPO_ROOT, 'deploy/package.json'), 'utf8'),
    ) as {
      scripts: Record<string, string>;
    };
    expect(deployManifest.scripts['build:runtime']).toBe('node scripts/build-runtime.mjs');
  });

  it('copies exactly the runtime tree into the last stage, and nothing of the build stage besides', () => {
    const copies = (find('COPY') as Copy[]).map((i) => [
      i.getFromFlag()?.getValue(),
      ...i.getExpandedArguments().map((a) => a.getValue()),
    ]);
    expect(copies).toEqual([['build', '/runtime/', './']]);
    expect(find('WORKDIR').map((i) => i.getArgumentsContent())).toEqual(['/app']);
    // No install, build or transpiler in the last stage: it only creates the secrets' mount points.
    const runs = find('RUN').map((i) => i.getArgumentsContent() ?? '');
    expect(runs.join('\n')).not.toMatch(/\bnpm\b|swc|tsc/);
  });

  it('runs as uid 1000 by number, so Kubernetes can verify runAsNonRoot', () => {
    expect(find('USER').map((i) => i.getArgumentsContent())).toEqual(['1000:1000']);
  });

  it('checks /healthz with the image-local probe script', () => {
    const [healthcheck] = find('HEALTHCHECK') as Healthcheck[];
    const flags = healthcheck.getFlags().map((f) => f.getName());
    expect(flags).toEqual(expect.arrayContaining(['interval', 'timeout', 'start-period', 'retries']));
    expect(execForm(healthcheck)).toEqual(['node', '/app/deploy/healthcheck.mjs', '/healthz']);
    expect(fs.existsSync(path.join(REPO_ROOT, 'deploy/healthcheck.mjs'))).toBe(true);
  });

  it('is one image for every target: the entrypoint takes --target=<name>, gateway by default', () => {
    const [entrypoint] = find('ENTRYPOINT');
    expect(execForm(entrypoint)).toEqual(['/bin/sh', '/app/deploy/docker-entrypoint.sh']);
    expect(fs.existsSync(path.join(REPO_ROOT, 'deploy/docker-entrypoint.sh'))).toBe(true);
    const [cmd] = find('CMD');
    expect(execForm(cmd)).toEqual(['--target=gateway']);
  });

  it('sets the runtime environment the launcher needs, no transpiler setting and nothing secret', () => {
    const env = find('ENV').flatMap((i) => i.getExpandedArguments().map((a) => a.getValue()));
    expect(env).toEqual(['NODE_ENV=production', 'HOST=0.0.0.0', 'PORT=3000']);
  });

  it('runs what the runtime tree holds: the entrypoint execs the compiled launcher', () => {
    const entrypoint = fs.readFileSync(path.join(REPO_ROOT, 'deploy/docker-entrypoint.sh'), 'utf8');
    expect(entrypoint).toContain('exec node launcher/dist/main.js "$@"');
    const tree = fs.readFileSync(path.join(REPO_ROOT, 'deploy/scripts/runtime-tree.mjs'), 'utf8');
    expect(tree).toContain(
      "export const DEPLOY_FILES = ['docker-entrypoint.sh', 'healthcheck.mjs', 'init-secrets.mjs'];",
    );
  });
});

describe('dockerfileProblems (the rules have teeth)', () => {
  it('reports each unsafe construct', () => {
    const bad = [
      'FROM node:latest AS build',
      'ADD https://example.invalid/tool.tgz /opt/',
      'FROM node',
      'ARG NPM_TOKEN=abc123',
      'ENV AUTH_PRIVATE_KEY=xyz',
      'COPY .env /app/.env',
      'COPY keys/auth.pem /app/',
      'USER root',
      'HEALTHCHECK NONE',
    ].join('\n');
    expect(dockerfileProblems(bad)).toEqual([
      'FROM node:latest: pin at least the major version (name:22-…)',
      'ADD https://example.invalid/tool.tgz /opt/: use COPY (ADD fetches URLs and unpacks archives)',
      'FROM node: pin at least the major version (name:22-…)',
      'ARG NPM_TOKEN: secrets must not be baked in',
      'ENV AUTH_PRIVATE_KEY: secrets must not be baked in',
      'COPY .env: secrets must not be copied into the image',
      'COPY keys/auth.pem: secrets must not be copied into the image',
      'the final stage runs as root: add USER with a non-root id',
      'the final stage needs one HEALTHCHECK',
    ]);
  });

  it('reports a single-stage image with no USER and no HEALTHCHECK', () => {
    expect(dockerfileProblems('FROM node:22-bookworm-slim\nCMD ["node"]\n')).toEqual([
      'not multi-stage: build tools would ship in the runtime image',
      'the final stage runs as root: add USER with a non-root id',
      'the final stage needs one HEALTHCHECK',
    ]);
  });
});

describe('.dockerignore', () => {
  const entries = fs
    .readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it('keeps git history, local dependencies, data and secrets out of the build context', () => {
    expect(entries).toEqual(
      expect.arrayContaining(['.git', '**/node_modules', '.data', '.env', '**/.env', '**/*.pem', '**/*.key']),
    );
  });

  it('does not exclude what the image build needs', () => {
    for (const needed of [
      'deploy',
      'launcher',
      'web',
      'services',
      'libs',
      'gateway',
      'package.json',
      'package-lock.json',
    ]) {
      expect(entries).not.toContain(needed);
    }
  });
});
