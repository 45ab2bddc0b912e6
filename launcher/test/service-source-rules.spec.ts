import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

/**
 * Two rules of the service template (services/README.md, issue #35 item 2), checked over every services/* /src:
 * - dependencies between a service's top-level folders point one way: no import cycle between them (a root file,
 *   such as the module or the errors, is a node of its own);
 * - SQL lives in repositories: only `*.repository.ts` files, migrations and seeds run it (`.query(`,
 *   `createQueryBuilder(`).
 * Tests (`*.spec.ts`) are not part of the structure and are left out.
 */

const SERVICES_DIR = path.resolve(__dirname, '../../services');

interface SourceFile {
  /** Path inside src, with forward slashes. */
  rel: string;
  text: string;
}

function sourceFiles(src: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.(spec|test)\.tsx?$/.test(entry.name))
        out.push({
          rel: path.relative(src, full).split(path.sep).join('/'),
          text: readFileSync(full, 'utf8'),
        });
    }
  };
  walk(src);
  return out;
}

/** A file's node: its top-level folder, or the file itself when it sits at the root of src. */
const nodeOf = (rel: string) => (rel.includes('/') ? `${rel.split('/')[0]}/` : rel);

/** Every import cycle between the top-level folders (and root files) of `src`, each with the imports that make it. */
export function folderCycles(src: string): string[] {
  const edges = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(src)) {
    const from = nodeOf(file.rel);
    for (const { fileName } of ts.preProcessFile(file.text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.rel), fileName));
      if (target.startsWith('..')) continue;
      const to = nodeOf(
        target.includes('/') ? target : `${target}${/\.[cm]?[jt]sx?$/.test(target) ? '' : '.ts'}`,
      );
      if (to === from) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${file.rel} imports ${fileName}`);
      edges.set(from, out);
    }
  }
  // Tarjan's strongly connected components: each with more than one node is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length < 2) return;
    const members = new Set(component);
    const why = component.flatMap((a) =>
      [...(edges.get(a) ?? [])].filter(([b]) => members.has(b)).map(([b, how]) => `${a} -> ${b} (${how})`),
    );
    cycles.push(`${component.sort().join(' <-> ')}: ${why.sort().join('; ')}`);
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

const SQL_CALL = /\.query\s*(<[^>]*>)?\s*\(|createQueryBuilder\s*\(/;

/** Files of `src` outside repositories, migrations and seeds that run SQL, with the first such line. */
export function sqlOutsideRepositories(src: string): string[] {
  return sourceFiles(src)
    .filter(({ rel }) => !rel.endsWith('.repository.ts') && !/(^|\/)(migrations|seed)\//.test(rel))
    .flatMap(({ rel, text }) => {
      const lines = text.split('\n');
      const at = lines.findIndex((line) => SQL_CALL.test(line));
      return at === -1 ? [] : [`${rel}:${at + 1}: ${lines[at].trim()}`];
    });
}

const services = readdirSync(SERVICES_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory() && readdirSync(path.join(SERVICES_DIR, e.name)).includes('src'))
  .map((e) => e.name);

describe('the service template’s source rules', () => {
  it('covers every service', () => {
    expect(services).toEqual(
      expect.arrayContaining(['identity', 'content', 'chat', 'assessment', 'classroom']),
    );
  });

  it.each(services)('%s: no import cycle between its top-level folders', (service) => {
    expect(folderCycles(path.join(SERVICES_DIR, service, 'src'))).toEqual([]);
  });

  it.each(services)('%s: SQL only in repositories, migrations and seeds', (service) => {
    expect(sqlOutsideRepositories(path.join(SERVICES_DIR, service, 'src'))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  let src: string;
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(src, rel)), { recursive: true });
    writeFileSync(path.join(src, rel), text);
  };
  beforeEach(() => {
    src = mkdtempSync(path.join(os.tmpdir(), 'service-rules-'));
  });
  afterEach(() => rmSync(src, { recursive: true, force: true }));

  it('finds a cycle between a domain folder and users/, through any file of each, type-only imports too', () => {
    write('grades/grades.service.ts', `import { enqueueAudit } from '../users/audit';\n`);
    write('users/audit.ts', `export const enqueueAudit = 1;\n`);
    write(
      'users/user-events.consumer.ts',
      `import type { GradesRepository } from '../grades/grades.repository';\n`,
    );
    write('grades/grades.repository.ts', `export class GradesRepository {}\n`);
    expect(folderCycles(src)).toEqual([
      'grades/ <-> users/: grades/ -> users/ (grades/grades.service.ts imports ../users/audit); ' +
        'users/ -> grades/ (users/user-events.consumer.ts imports ../grades/grades.repository)',
    ]);
  });

  it('finds a longer cycle, one through a root file, and none where imports point one way', () => {
    write('a/x.ts', `import '../b/y';\n`);
    write('b/y.ts', `export * from '../c/z';\n`);
    write('c/z.ts', `const m = import('../a/x');\n`);
    write('d/d.ts', `import { e } from '../shared';\n`);
    write('shared.ts', `import { d } from './d/d';\n`);
    write('app.module.ts', `import '../a/x'; import './a/x'; import './d/d';\n`);
    expect(folderCycles(src).map((c) => c.split(':')[0])).toEqual(['a/ <-> b/ <-> c/', 'd/ <-> shared.ts']);
    rmSync(path.join(src, 'shared.ts'));
    rmSync(path.join(src, 'c'), { recursive: true });
    expect(folderCycles(src)).toEqual([]);
  });

  it('finds SQL run outside a repository, and not in repositories, migrations or seeds', () => {
    write('users/user-export.responder.ts', `const rows = await this.dataSource.query(\`SELECT 1\`);\n`);
    write(
      'users/user-events.consumer.ts',
      `await manager.query<{ n: number }[]>('UPDATE posts SET x = 1');\n`,
    );
    write('oidc/accounts.service.ts', `await this.identities\n  .createQueryBuilder()\n  .insert();\n`);
    write('posts/posts.repository.ts', `await tx.query('SELECT 1');\n`);
    write('migrations/1-create.migration.ts', `await queryRunner.query('CREATE TABLE t ()');\n`);
    write('seed/seed.service.ts', `await tx.query('INSERT INTO t DEFAULT VALUES');\n`);
    write('posts/posts.service.ts', `const query = request.query; this.posts.listFor(query);\n`);
    expect(sqlOutsideRepositories(src).sort()).toEqual([
      'oidc/accounts.service.ts:2: .createQueryBuilder()',
      "users/user-events.consumer.ts:1: await manager.query<{ n: number }[]>('UPDATE posts SET x = 1');",
      'users/user-export.responder.ts:1: const rows = await this.dataSource.query(`SELECT 1`);',
    ]);
  });
});
