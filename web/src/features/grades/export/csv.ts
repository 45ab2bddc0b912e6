/** A cell of a CSV file: text is written as is (guarded, quoted when needed); numbers and booleans as their text. */
export type CsvCell = string | number | boolean | null | undefined;

/** Spreadsheet apps run a cell starting with one of these as a formula (CSV/formula injection, OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: text that a spreadsheet would read as a formula gets a leading apostrophe; RFC 4180 quoting. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * RFC 4180 text: CRLF between records (and after the last), fields quoted when they hold a quote, comma or line
 * break. With `bom` (default) it starts with U+FEFF so that Excel reads it as UTF-8.
 */
export function toCsv(rows: readonly (readonly CsvCell[])[], { bom = true }: { bom?: boolean } = {}): string {
  const body = rows.map((row) => row.map(csvCell).join(',')).join('\r\n');
  return `${bom ? '\uFEFF' : ''}${body}${rows.length > 0 ? '\r\n' : ''}`;
}
