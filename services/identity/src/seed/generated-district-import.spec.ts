import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDistrict, type DistrictOptions } from '@district/nest-common/testing';
import { startIdentity, type IdentityTestApp } from '../../test/support/identity-app';
import { RosterImportService } from '../roster/roster-import.service';

/**
 * The district generator's zips (tests, the benchmark, the demo) are what identity's importer takes: its bulk zip
 * imports without an error and again without a write, its delta applies, and its known bad rows are exactly the
 * rows the import lists, at the lines and columns the generator says.
 */
describe('a generated district imported', () => {
  const shape = { schools: 2, teachers: 6, students: 120, seed: 36 } satisfies DistrictOptions;
  let app: IdentityTestApp;
  let dir: string;
  const importZip = async (options: DistrictOptions) => {
    const generated = await generateDistrict({ ...options, out: join(dir, `district-${Date.now()}.zip`) });
    return { generated, imported: await app.service.app.get(RosterImportService).importFile(generated.path) };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'district-'));
    app = await startIdentity();
  });
  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes the bulk zip without an error, and the same zip again without a write', async () => {
    const { generated, imported } = await importZip(shape);
    expect(imported).toMatchObject({ status: 'done', errorCount: 0, failure: null });
    const rows = Object.values(generated.counts.rows).reduce((a, b) => a + b, 0);
    expect(imported.total).toBe(rows);
    expect(imported.created).toBeGreaterThanOrEqual(5 + 6 + 120 + generated.counts.enrollments);
    const again = await importZip(shape);
    expect(again.imported).toMatchObject({
      status: 'done',
      errorCount: 0,
      created: 0,
      updated: 0,
      deactivated: 0,
    });
  });

  it('applies its 5 % delta', async () => {
    const { generated, imported } = await importZip({ ...shape, deltaPercent: 5 });
    expect(imported).toMatchObject({ status: 'done', errorCount: 0, failure: null });
    const delta = generated.counts.delta;
    expect(imported.created).toBe(delta?.addedEnrollments);
    expect(imported.updated + imported.deactivated).toBeGreaterThanOrEqual(
      (delta?.users ?? 0) + (delta?.droppedEnrollments ?? 0),
    );
  });

  it('lists exactly the bad rows the generator injected, at their lines and columns', async () => {
    const { generated, imported } = await importZip({ ...shape, errors: true });
    expect(imported.status).toBe('done');
    const key = (e: { file: string; line: number; field: string }) => `${e.file}:${e.line}:${e.field}`;
    expect(imported.errors.map(key).sort()).toEqual(generated.errors.map(key).sort());
  });
});
