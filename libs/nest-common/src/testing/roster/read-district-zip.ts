import { parse } from 'csv-parse/sync';
import { fromBuffer, type Entry } from 'yauzl';

/** A OneRoster zip's files as read back: each entry's text, and its rows keyed by header (tests only). */
export interface DistrictFiles {
  names: string[];
  text(name: string): string;
  rows(name: string): Record<string, string>[];
}

/** Every entry of `bytes`, in the zip's order. Holds the whole zip: for tests of small districts. */
export async function readDistrictZip(bytes: Buffer): Promise<DistrictFiles> {
  const files = await new Promise<Map<string, string>>((resolve, reject) => {
    fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const read = new Map<string, string>();
      zip.on('entry', (entry: Entry) =>
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('error', reject);
          stream.on('end', () => {
            read.set(entry.fileName, Buffer.concat(parts).toString('utf8'));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(read));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
  const parsed = new Map<string, Record<string, string>[]>();
  return {
    names: [...files.keys()],
    text: (name) => files.get(name) ?? '',
    rows(name) {
      let rows = parsed.get(name);
      if (!rows) {
        rows = parse(files.get(name) ?? '', { columns: true, skip_empty_lines: true }) as Record<
          string,
          string
        >[];
        parsed.set(name, rows);
      }
      return rows;
    },
  };
}

/** All of a stream's bytes. */
export async function bytesOf(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
