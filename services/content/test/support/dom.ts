import { execFile } from 'node:child_process';
import { join } from 'node:path';

export interface DomElement {
  name: string;
  namespace: string | null;
  attributes: Record<string, string>;
  text: string;
  parent: string | null;
}

export interface ParsedDocument {
  ok: boolean;
  error?: string;
  root?: { name: string; namespace: string | null; attributes: Record<string, string> };
  elements?: DomElement[];
}

/** Parses HTML fragments (as a page body) or XML documents with jsdom, in a child process (see dom-inspect.mjs). */
export function parseDocuments(
  documents: { source: string; type: 'html' | 'xml' }[],
): Promise<ParsedDocument[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [join(__dirname, 'dom-inspect.mjs')],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as ParsedDocument[])),
    );
    child.stdin?.end(JSON.stringify(documents));
  });
}

export async function parseXml(source: string): Promise<ParsedDocument> {
  const [doc] = await parseDocuments([{ source, type: 'xml' }]);
  if (!doc.ok) throw new Error(`not well-formed XML: ${doc.error}`);
  return doc;
}
