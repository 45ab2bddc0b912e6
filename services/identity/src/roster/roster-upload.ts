import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { ROSTER_ZIP_MAX_BYTES, RosterMessages } from '@district/contracts';
import { RosterRefusedError } from './roster.errors';

const FILE_FIELD = 'file';

/** An upload on disk, in a temporary folder of its own. */
export interface ReceivedZip {
  path: string;
  fileName: string;
  /** Removes the file and its folder (a refused upload). */
  discard(): Promise<void>;
}

/**
 * Streams the multipart field `file` to a temporary file, never holding it in memory; over ROSTER_ZIP_MAX_BYTES
 * it is refused (413) and removed. No file part → noFile; a broken form is the caller's mistake (400), never a 500.
 */
export async function receiveRosterZip(request: FastifyRequest): Promise<ReceivedZip> {
  if (!request.isMultipart()) throw new RosterRefusedError(RosterMessages.noFile);
  const dir = await mkdtemp(join(tmpdir(), 'roster-import-'));
  const discard = () => rm(dir, { recursive: true, force: true });
  const path = join(dir, 'roster.zip');
  try {
    for await (const part of request.parts({
      limits: { fileSize: ROSTER_ZIP_MAX_BYTES, files: 1, fields: 20 },
    })) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== FILE_FIELD) {
        part.file.resume();
        continue;
      }
      await pipeline(part.file, createWriteStream(path));
      if (part.file.truncated) throw new RosterRefusedError(RosterMessages.tooLarge, true);
      const fileName = basename(part.filename || 'roster.zip').slice(0, 255) || 'roster.zip';
      // Whatever follows the file is not read: the form's rest is drained by the plugin.
      return { path, fileName, discard };
    }
    throw new RosterRefusedError(RosterMessages.noFile);
  } catch (error) {
    await discard();
    if (error instanceof RosterRefusedError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new RosterRefusedError(RosterMessages.tooLarge, true);
    // busboy's "Unexpected end of form", a part header cut off…: the form itself is broken.
    if (code?.startsWith('FST_') || error instanceof Error)
      throw new RosterRefusedError(RosterMessages.noFile);
    throw error;
  }
}
