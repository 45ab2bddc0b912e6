import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { FORMAT, FORMAT_VERSION, MAGIC, frame, type BackupHeader, type FrameKind } from './format';
import { verifyBackup } from './restore';

/** verifyBackup on files made here: what a restore refuses before it opens any database (ADR 0044). */
const dir = mkdtempSync(path.join(os.tmpdir(), 'district-backup-format-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header: BackupHeader = {
  format: FORMAT,
  version: FORMAT_VERSION,
  createdAt: '2026-12-08T00:00:00.000Z',
  server: '17.6',
  source: 'test',
  schemas: {
    identity: {
      migrations: ['CreateUsers1'],
      tables: [{ name: 'users', columns: ['id', 'email'], rows: 2 }],
      sequences: [],
    },
  },
};

type Parts = Array<[FrameKind, string]>;
const whole = (): Parts => [
  ['M', MAGIC],
  ['H', JSON.stringify(header)],
  ['T', JSON.stringify({ schema: 'identity', table: 'users' })],
  ['D', '1\ta@school.test\n'],
  ['D', '2\tb@school.test\n'],
  ['E', JSON.stringify({ rows: 2 })],
];

/** Frames, a trailer over them (or over `hashed` when given: a file changed after it was made), gzip. */
function file(name: string, parts: Parts, options: { hashed?: Parts; tail?: Buffer } = {}): string {
  const frames = parts.map(([kind, payload]) => frame(kind, payload));
  const hash = createHash('sha256');
  for (const f of (options.hashed ?? parts).map(([kind, payload]) => frame(kind, payload))) hash.update(f);
  const trailer = frame('Z', JSON.stringify({ sha256: hash.digest('hex'), frames: frames.length }));
  const out = path.join(dir, name);
  writeFileSync(out, gzipSync(Buffer.concat([...frames, trailer, options.tail ?? Buffer.alloc(0)])));
  return out;
}

it('reads a whole file and answers its header', async () => {
  await expect(verifyBackup(file('whole', whole()))).resolves.toEqual(header);
});

it('refuses a file whose data changed after it was made (checksum)', async () => {
  const changed = whole();
  changed[3] = ['D', '1\tz@school.test\n'];
  await expect(verifyBackup(file('changed', changed, { hashed: whole() }))).rejects.toThrow(
    'its checksum does not match its contents',
  );
});

it('refuses a table whose rows are not what the header counted', async () => {
  const short = whole();
  short[5] = ['E', JSON.stringify({ rows: 1 })];
  await expect(verifyBackup(file('short', short))).rejects.toThrow(
    'table identity.users holds other rows than its header says',
  );
});

it('refuses a file missing a table the header lists, or with bytes after its end', async () => {
  await expect(verifyBackup(file('missing', whole().slice(0, 2)))).rejects.toThrow(
    'tables the header lists are missing',
  );
  await expect(verifyBackup(file('tail', whole(), { tail: Buffer.from('more') }))).rejects.toThrow(
    'data follows the end of the backup',
  );
});

it('refuses a cut file, and one of another format version, saying which', async () => {
  const cut = path.join(dir, 'cut');
  const full = gzipSync(Buffer.concat(whole().map(([k, p]) => frame(k, p))));
  writeFileSync(cut, full.subarray(0, full.length - 10));
  await expect(verifyBackup(cut)).rejects.toThrow(/cut short or damaged|truncated/);
  const other = whole();
  other[0] = ['M', `${FORMAT} 2`];
  await expect(verifyBackup(file('v2', other))).rejects.toThrow(
    `it is a backup of format "${FORMAT} 2"; this version reads "${MAGIC}"`,
  );
  writeFileSync(path.join(dir, 'plain'), 'hello');
  await expect(verifyBackup(path.join(dir, 'plain'))).rejects.toThrow('it is not a backup file');
});
