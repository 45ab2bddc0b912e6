import { createHash, type Hash } from 'node:crypto';

/**
 * The backup file (ADR 0044): gzip around a stream of frames, each one byte of kind, four of length (big-endian)
 * and its payload. The first frame is the header (JSON); each table is a `T` frame (JSON: schema, table), its COPY
 * text in `D` frames, and an `E` frame (JSON: rows); the last frame is the trailer (JSON: the SHA-256 of every byte
 * before it, and the frame count). A file without its trailer, or whose digest differs, is refused whole.
 */
export const FORMAT = 'district-backup';
export const FORMAT_VERSION = 1;
/** What a file starts with once unzipped: a frame of kind `M` holding this text. */
export const MAGIC = `${FORMAT} ${FORMAT_VERSION}`;

export type FrameKind = 'M' | 'H' | 'T' | 'D' | 'E' | 'Z';
const KINDS = new Set<string>(['M', 'H', 'T', 'D', 'E', 'Z']);
/** No frame is larger: a COPY chunk is a few kB; a header with thousands of tables a few MB. */
export const MAX_FRAME = 64 * 1024 * 1024;

export interface BackupTable {
  name: string;
  /** The columns copied, in order (generated columns are left out: PostgreSQL computes them again). */
  columns: string[];
  rows: number;
}

export interface BackupSequence {
  name: string;
  lastValue: string;
  isCalled: boolean;
}

export interface BackupSchema {
  /** The migrations applied, in the order applied (TypeORM's `migrations` table, by id). */
  migrations: string[];
  tables: BackupTable[];
  sequences: BackupSequence[];
}

export interface BackupHeader {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** The PostgreSQL server the data came from (`server_version`). */
  server: string;
  /** Where it came from, without credentials: `embedded` or the host/database of DATABASE_URL. */
  source: string;
  schemas: Record<string, BackupSchema>;
}

export interface BackupTrailer {
  sha256: string;
  frames: number;
}

export class BackupFileError extends Error {}

export function frame(kind: FrameKind, payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const head = Buffer.allocUnsafe(5);
  head.write(kind, 0, 'latin1');
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

export interface Frame {
  kind: FrameKind;
  payload: Buffer;
}

/**
 * Reads frames off an unzipped byte stream, keeping a running SHA-256 of every frame before the trailer. Yields
 * the trailer too; after it, nothing may follow.
 */
export async function* readFrames(
  chunks: AsyncIterable<Buffer>,
): AsyncGenerator<Frame & { digest?: string }> {
  const hash: Hash = createHash('sha256');
  let buffer: Buffer = Buffer.alloc(0);
  let seenTrailer = false;
  for await (const chunk of chunks) {
    if (seenTrailer && chunk.length) throw new BackupFileError('data follows the end of the backup');
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    let offset = 0;
    while (buffer.length - offset >= 5) {
      const kind = buffer.toString('latin1', offset, offset + 1);
      const length = buffer.readUInt32BE(offset + 1);
      if (!KINDS.has(kind) || length > MAX_FRAME)
        throw new BackupFileError('it is not a backup file, or it is corrupt');
      if (buffer.length - offset < 5 + length) break;
      const whole = buffer.subarray(offset, offset + 5 + length);
      offset += 5 + length;
      const payload = whole.subarray(5);
      if (kind === 'Z') {
        if (offset !== buffer.length) throw new BackupFileError('data follows the end of the backup');
        seenTrailer = true;
        yield { kind, payload, digest: hash.digest('hex') };
      } else {
        hash.update(whole);
        yield { kind: kind as FrameKind, payload };
      }
    }
    buffer = buffer.subarray(offset);
  }
  if (buffer.length > 0) throw new BackupFileError('the file ends in the middle of a frame (truncated)');
  if (!seenTrailer) throw new BackupFileError('the file ends before its trailer (truncated)');
}

export const json = <T>(payload: Buffer): T => JSON.parse(payload.toString('utf8')) as T;
