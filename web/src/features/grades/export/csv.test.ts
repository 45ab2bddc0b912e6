import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

/** A strict RFC 4180 reader (CRLF records, quoted fields), to check what toCsv writes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i += 1;
      } else {
        field += c;
        i += 1;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
      i += 1;
    } else if (c === ',') {
      row.push(field);
      field = '';
      i += 1;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else {
      if (c === '"' || c === '\r' || c === '\n') throw new Error(`bare ${JSON.stringify(c)} at ${i}`);
      field += c;
      i += 1;
    }
  }
  if (field !== '' || row.length > 0) throw new Error('last record not terminated by CRLF');
  return rows;
}

const guard = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);

describe('toCsv (RFC 4180, UTF-8 BOM, formula-safe)', () => {
  it('starts with the BOM, ends records with CRLF and quotes only what needs it', () => {
    const csv = toCsv([
      ['Name', 'Note'],
      ['Ana', 'said "hola", then left'],
      ['Beto', 'line 1\nline 2'],
    ]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1)).toBe('Name,Note\r\nAna,"said ""hola"", then left"\r\nBeto,"line 1\nline 2"\r\n');
    expect(toCsv([['a']], { bom: false })).toBe('a\r\n');
    expect(toCsv([], { bom: false })).toBe('');
  });

  it.each([
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+1', "'+1"],
    ['-2+3', "'-2+3"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['plain', 'plain'],
    ["'already", "'already"],
  ])('guards a text cell starting like a formula: %j', (input, out) => {
    expect(csvCell(input)).toBe(out);
  });

  it('writes numbers and booleans as they are (a negative number is not text) and empty for null', () => {
    expect([csvCell(-3), csvCell(70), csvCell(true), csvCell(null), csvCell(undefined)]).toEqual(['-3', '70', 'true', '', '']);
  });

  it('reads back, cell for cell, as the guarded text (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 6 }), { maxLength: 8 }), (rows) => {
        const csv = toCsv(rows);
        expect(csv.charCodeAt(0)).toBe(0xfeff);
        const parsed = parseCsv(csv.slice(1));
        // A record of one empty field is written as an empty line: the reader sees [''] as well.
        expect(parsed).toEqual(rows.map((r) => r.map(guard)));
      }),
      { numRuns: 300 },
    );
  });

  it('never leaves a cell that a spreadsheet would run as a formula (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const [[cell]] = parseCsv(toCsv([[s]], { bom: false })) as [[string]];
        expect(/^[=+\-@\t\r]/.test(cell)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
