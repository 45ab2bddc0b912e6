/** A cell of a CSV file: text is written guarded and quoted; numbers and booleans as their text. */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * Spreadsheet apps run a cell starting with one of these as a formula (CSV/formula injection, OWASP), also after
 * blanks. A line break or tab at the very start is refused too: some apps drop it and read what follows.
 */
const LEADING_BREAK = /^[\t\r\n]/;
/**
 * A trigger at the start of the text or of any piece a separator could cut it into: the list separators of the
 * spreadsheets' locales (comma, semicolon, tab) and line breaks. Quoting alone is not enough, because an app opened
 * with another separator, or a reader that ignores quotes, still cuts there (issue #34: `Kim;=1+1`).
 */
const TRIGGER = /(^|[,;\t\r\n])(\s*)(?=[=+\-@])/g;

/** Text with an apostrophe before every formula trigger a spreadsheet could see at the start of a cell. */
export function neutraliseFormulas(text: string): string {
  const guarded = text.replace(TRIGGER, "$1$2'");
  return LEADING_BREAK.test(guarded) ? `'${guarded}` : guarded;
}

/** One cell: text guarded and always quoted (RFC 4180, quotes doubled); numbers and booleans bare. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  return `"${neutraliseFormulas(value).replace(/"/g, '""')}"`;
}

/**
 * RFC 4180 text: CRLF between records (and after the last), every text field quoted. With `bom` (default) it
 * starts with U+FEFF so that Excel reads it as UTF-8.
 */
export function toCsv(rows: readonly (readonly CsvCell[])[], { bom = true }: { bom?: boolean } = {}): string {
  const body = rows.map((row) => row.map(csvCell).join(',')).join('\r\n');
  return `${bom ? '\uFEFF' : ''}${body}${rows.length > 0 ? '\r\n' : ''}`;
}
