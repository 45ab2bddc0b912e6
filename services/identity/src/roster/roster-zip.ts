import { parse } from 'csv-parse';
import type { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import { ROSTER_MAX_COMPRESSION_RATIO, ROSTER_UNZIPPED_MAX_BYTES, RosterMessages } from '@district/contracts';
import {
  ROSTER_DATA_FILES,
  RosterHeader,
  type ProcessingMode,
  type RosterDataFile,
  type RosterLine,
} from './roster-files';
import { RosterRefusedError } from './roster.errors';

/**
 * Below this size an entry's ratio is not held against it: a small CSV of repeated values (an empty column, a
 * header only) can legitimately shrink more than ROSTER_MAX_COMPRESSION_RATIO times, and cannot hurt anyone.
 */
const RATIO_CHECKED_ABOVE_BYTES = 1024 * 1024;

/**
 * A OneRoster CSV zip, opened and checked from its central directory: a zip, a manifest, sizes within limits.
 * yauzl checks while inflating that each entry is the size the directory claims, so the checks hold for the data.
 */
export class RosterZip {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
  ) {}

  /** Opens and checks the zip at `path`; a refusal throws RosterRefusedError with the message to show. */
  static async open(path: string): Promise<RosterZip> {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
    } catch {
      throw new RosterRefusedError(RosterMessages.notAZip);
    }
    try {
      const entries = await readDirectory(zip);
      if (!entries.has('manifest.csv')) throw new RosterRefusedError(RosterMessages.missingManifest);
      return new RosterZip(zip, entries);
    } catch (error) {
      zip.close();
      throw error instanceof RosterRefusedError ? error : new RosterRefusedError(RosterMessages.notAZip);
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  close(): void {
    this.zip.close();
  }

  /** The manifest's processing mode of each data file (an unlisted file is `absent`). */
  async manifest(): Promise<Map<RosterDataFile, ProcessingMode>> {
    const modes = new Map<RosterDataFile, ProcessingMode>();
    const properties = new Map<string, string>();
    for await (const { record: cells } of this.records('manifest.csv')) {
      const [name = '', value = ''] = cells.map((c) => c.trim());
      properties.set(name.toLowerCase(), value.toLowerCase());
    }
    for (const file of ROSTER_DATA_FILES) {
      const value = properties.get(`file.${file.replace(/\.csv$/, '')}`.toLowerCase()) ?? 'absent';
      if (value !== 'bulk' && value !== 'delta' && value !== 'absent')
        throw new RosterRefusedError(
          `manifest.csv: file.${file.replace(/\.csv$/, '')} is "${value}"; it must be bulk, delta or absent.`,
        );
      if (value !== 'absent' && !this.entries.has(file))
        throw new RosterRefusedError(`manifest.csv lists ${file} as ${value}, but the zip has no ${file}.`);
      modes.set(file, value);
    }
    return modes;
  }

  /** Checks each listed file's header; a missing required column refuses the whole zip naming file and column. */
  async checkHeaders(modes: Map<RosterDataFile, ProcessingMode>): Promise<void> {
    for (const [file, mode] of modes) {
      if (mode === 'absent') continue;
      for await (const { record: cells } of this.records(file)) {
        const missing = new RosterHeader(cells).missing(file);
        if (missing) throw new RosterRefusedError(`${file} has no ${missing} column (required).`);
        break;
      }
    }
  }

  /**
   * About how many data rows `file` has (its lines but the header), counted from the raw bytes without parsing, so
   * progress has its total early; a quoted field spanning lines makes it a little high (corrected at the end).
   */
  async countRows(file: RosterDataFile): Promise<number> {
    const entry = this.entries.get(file);
    if (!entry) return 0;
    const stream: Readable = await this.zip.openReadStreamPromise(entry);
    let lines = 0;
    let last = 10;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      if (chunk.length > 0) last = chunk[chunk.length - 1];
    }
    if (last !== 10) lines++;
    return Math.max(lines - 1, 0);
  }

  /** The rows of `file`, streamed from the zip entry, each with its line number and values by header name. */
  async *rows(file: RosterDataFile): AsyncGenerator<RosterLine> {
    let header: RosterHeader | undefined;
    for await (const { record, info } of this.records(file)) {
      if (!header) {
        header = new RosterHeader(record);
        continue;
      }
      yield { line: info.lines, row: header.read(file, record) };
    }
  }

  /** The records of entry `name` (each with where it ended), parsed as they inflate; none when it is absent. */
  private async *records(name: string): AsyncGenerator<{ record: string[]; info: { lines: number } }> {
    const entry = this.entries.get(name);
    if (!entry) return;
    const stream: Readable = await this.zip.openReadStreamPromise(entry);
    const parser = stream.pipe(
      parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, relax_quotes: true }),
    );
    try {
      for await (const parsed of parser) yield parsed as { record: string[]; info: { lines: number } };
    } finally {
      stream.destroy();
      parser.destroy();
    }
  }
}

/** The entries by base name (a zip made of a folder has them one level down), checking sizes as it goes. */
function readDirectory(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    let total = 0;
    zip.on('error', reject);
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: yauzl.Entry) => {
      total += entry.uncompressedSize;
      const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
      if (
        total > ROSTER_UNZIPPED_MAX_BYTES ||
        (entry.uncompressedSize > RATIO_CHECKED_ABOVE_BYTES && ratio > ROSTER_MAX_COMPRESSION_RATIO)
      ) {
        reject(new RosterRefusedError(RosterMessages.zipBomb));
        return;
      }
      const name = entry.fileName.split('/').pop() ?? '';
      if (!entry.fileName.endsWith('/') && !entry.fileName.startsWith('__MACOSX/') && !entries.has(name))
        entries.set(name, entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
}
