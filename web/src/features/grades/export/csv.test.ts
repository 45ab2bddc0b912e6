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

/** Where a spreadsheet may start a new cell or record: the separators Excel, LibreOffice and Sheets use by locale. */
const SPLIT = /[,;\t\r\n]/;
/** A piece of a cell a spreadsheet would run: a formula trigger first, after any blanks. */
const runnable = (piece: string) => /^[\s]*[=+\-@]/.test(piece);
const dropApostrophes = (s: string) => s.replace(/'/g, '');

describe('toCsv (RFC 4180, UTF-8 BOM, formula-safe)', () => {
  it('starts with the BOM, ends records with CRLF and quotes every text cell', () => {
    const csv = toCsv([
      ['Name', 'Note'],
      ['Ana', 'said "hola", then left'],
      ['Beto', 'line 1\nline 2'],
    ]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1)).toBe(
      '"Name","Note"\r\n"Ana","said ""hola"", then left"\r\n"Beto","line 1\nline 2"\r\n',
    );
    expect(toCsv([['a', 3]], { bom: false })).toBe('"a",3\r\n');
    expect(toCsv([], { bom: false })).toBe('');
  });

  it.each([
    // Issue #34: Excel with a ';' list separator split `Kim;=1+1` and ran `=1+1`.
    ['Kim;=1+1', `"Kim;'=1+1"`],
    ['a,=b', `"a,'=b"`],
    ['a; =b', `"a; '=b"`],
    ['x\t@SUM(1)', `"x\t'@SUM(1)"`],
    ['x\r+1', `"x\r'+1"`],
    ['x\n-1', `"x\n'-1"`],
    ['=SUM(A1:A9)', `"'=SUM(A1:A9)"`],
    ['+1', `"'+1"`],
    ['-2+3', `"'-2+3"`],
    ['@cmd', `"'@cmd"`],
    ['\tx', `"'\tx"`],
    ['\rx', `"'\rx"`],
    ['\nx', `"'\nx"`],
    ['\t=x', `"'\t'=x"`],
    [' =x', `" '=x"`],
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['Mary-Jane O+Neil @home', '"Mary-Jane O+Neil @home"'],
    ['plain', '"plain"'],
    ["'already", `"'already"`],
  ])('guards a text cell that could start a formula in any cell it splits into: %j', (input, out) => {
    expect(csvCell(input)).toBe(out);
  });

  it('writes numbers and booleans as they are (a negative number is not text) and empty for null', () => {
    expect([csvCell(-3), csvCell(70), csvCell(true), csvCell(null), csvCell(undefined)]).toEqual([
      '-3',
      '70',
      'true',
      '',
      '',
    ]);
  });

  it('reads back, cell for cell, as the text with only apostrophes added (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 6 }), { maxLength: 8 }),
        (rows) => {
          const csv = toCsv(rows);
          expect(csv.charCodeAt(0)).toBe(0xfeff);
          const parsed = parseCsv(csv.slice(1));
          expect(parsed.map((r) => r.map(dropApostrophes))).toEqual(rows.map((r) => r.map(dropApostrophes)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never leaves a piece that a spreadsheet would run as a formula, whichever separator it splits on (property)', () => {
    const tricky = fc.string({
      unit: fc.constantFrom('=', '+', '-', '@', ',', ';', '\t', '\r', '\n', ' ', '"', "'", 'a'),
    });
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string({ unit: 'binary' })), (s) => {
        const written = csvCell(s);
        const [[cell]] = parseCsv(`${written}\r\n`) as [[string]];
        expect(cell.split(SPLIT).filter(runnable)).toEqual([]);
        // A reader that ignores quoting (splitting the written text itself) sees no runnable piece either.
        expect(
          written
            .split(SPLIT)
            .map((piece) => piece.replace(/^"/, ''))
            .filter(runnable),
        ).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});
