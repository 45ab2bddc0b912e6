import fs from 'node:fs';
import path from 'node:path';
import type { Healthcheck } from 'dockerfile-ast';
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

  it('builds every stage on node:22-bookworm-slim', () => {
    expect(stages.map((s) => s.image)).toEqual(stages.map(() => 'node:22-bookworm-slim'));
    expect(final.name).toBe('runtime');
  });

  it('installs with npm ci across the workspaces and builds the SPA', () => {
    const runs = stages.flatMap((s) => find('RUN', s)).map((i) => i.getArgumentsContent() ?? '');
    expect(runs).toEqual(
      expect.arrayContaining([expect.stringMatching(/^npm ci\b/), 'npm run build -w web']),
    );
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

  it('sets the runtime environment the launcher needs and nothing secret', () => {
    const env = find('ENV').flatMap((i) => i.getExpandedArguments().map((a) => a.getValue()));
    expect(env).toEqual(
      expect.arrayContaining([
        'NODE_ENV=production',
        'SWC_NODE_PROJECT=tsconfig.runtime.json',
        'HOST=0.0.0.0',
        'PORT=3000',
      ]),
    );
    expect(fs.existsSync(path.join(REPO_ROOT, 'tsconfig.runtime.json'))).toBe(true);
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
