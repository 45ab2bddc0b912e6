import { RosterMessages, rosterImportSchema, type RosterImport } from '@district/contracts';
import { districtZipStream, type HttpClient } from '@district/nest-common/testing';
import { RosterImportsRepository } from '../src/roster/roster-imports.repository';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { ADMIN_ENV, signInAdmin } from './support/people';

/**
 * Two identity replicas (one schema) each take an upload of the same district at the same moment: the imports take
 * turns (ADR 0042), so the first writes the district and the second finds it all in place and writes nothing.
 * Applied together, each would create part of it and count rows the other wrote, or deadlock between batches.
 */
jest.setTimeout(180_000);

let first: IdentityTestApp;
let second: IdentityTestApp;

beforeAll(async () => {
  first = await startIdentity({ env: ADMIN_ENV, keepSchema: true });
  second = await startIdentity({ env: ADMIN_ENV, schema: first.schema });
});
afterAll(async () => {
  await first?.close();
  await second?.close();
});

async function upload(client: HttpClient, zip: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'district.zip');
  const res = await client.request<{ id: string }>('POST', '/api/admin/roster/imports', { multipart: form });
  expect(res.status).toBe(202);
  return res.body.id;
}

async function finished(client: HttpClient, id: string): Promise<RosterImport> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const found = rosterImportSchema.parse((await client.get(`/api/admin/roster/imports/${id}`)).body);
    if (found.status === 'done' || found.status === 'failed') return found;
    if (Date.now() > deadline) throw new Error(`import still ${found.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('runs two replicas’ imports one after the other', async () => {
  const { stream, counts } = districtZipStream({ seed: 11, schools: 2, teachers: 8, students: 200 });
  const zip = Buffer.from(await new Response(stream).arrayBuffer());
  const [a, b] = [await signInAdmin(first), await signInAdmin(second)];
  const ids = await Promise.all([upload(a, zip), upload(b, zip)]);
  const results = await Promise.all([finished(a, ids[0]), finished(b, ids[1])]);
  expect(results.map((r) => r.status)).toEqual(['done', 'done']);
  expect(results.map((r) => r.errorCount)).toEqual([0, 0]);
  // One wrote the district, the other nothing: which one is the race's.
  const created = results.map((r) => r.created).sort((x, y) => x - y);
  expect(created[0]).toBe(0);
  expect(created[1]).toBeGreaterThan(counts.students);
  expect(results.map((r) => r.updated + r.deactivated).sort((x, y) => x - y)[0]).toBe(0);
});

it('lets a stopping replica go while its import waits for another replica’s turn, failing it as interrupted', async () => {
  const turn = await first.service.app.get(RosterImportsRepository).holdImportTurn(() => false);
  const third = await startIdentity({ env: ADMIN_ENV, schema: first.schema, keepSchema: true });
  let released = false;
  let thirdClosed = false;
  try {
    const { stream } = districtZipStream({ seed: 12, schools: 1, teachers: 2, students: 10 });
    const zip = Buffer.from(await new Response(stream).arrayBuffer());
    const id = await upload(await signInAdmin(third), zip);
    await new Promise((r) => setTimeout(r, 1_000));
    const closed = third.close().then(() => {
      thirdClosed = true;
      return 'closed' as const;
    });
    const waited = new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), 15_000));
    expect(await Promise.race([closed, waited])).toBe('closed');
    await turn();
    released = true;
    const found = rosterImportSchema.parse(
      (await (await signInAdmin(first)).get(`/api/admin/roster/imports/${id}`)).body,
    );
    expect(found).toMatchObject({ status: 'failed', failure: RosterMessages.interrupted, processed: 0 });
  } finally {
    if (!released) await turn();
    if (!thirdClosed) await third.close().catch(() => undefined);
  }
});
