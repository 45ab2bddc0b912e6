import { createHash } from 'node:crypto';
import type { OneRosterFile } from '@district/contracts';

/** The CSV files an import applies, in the order it applies them (manifest.csv is read first, apart). */
export type RosterDataFile = Exclude<OneRosterFile, 'manifest.csv'>;
export const ROSTER_DATA_FILES: readonly RosterDataFile[] = [
  'orgs.csv',
  'academicSessions.csv',
  'courses.csv',
  'classes.csv',
  'users.csv',
  'roles.csv',
  'enrollments.csv',
];

/** How the manifest says to process a file: `bulk` (the whole set: absent rows end), `delta` (only these rows). */
export type ProcessingMode = 'bulk' | 'delta' | 'absent';

/**
 * The OneRoster 1.2 columns each file must have (a missing header fails the import naming it) and the other
 * columns this site reads. Any further column is ignored, and columns are found by their header name.
 */
export const ROSTER_COLUMNS: Record<RosterDataFile, { required: string[]; optional: string[] }> = {
  'orgs.csv': {
    required: ['sourcedId', 'name', 'type'],
    optional: ['status', 'dateLastModified', 'identifier', 'parentSourcedId'],
  },
  'academicSessions.csv': {
    required: ['sourcedId', 'title', 'type', 'startDate', 'endDate', 'schoolYear'],
    optional: ['status', 'dateLastModified', 'parentSourcedId'],
  },
  'courses.csv': {
    required: ['sourcedId', 'title', 'orgSourcedId'],
    optional: ['status', 'dateLastModified', 'schoolYearSourcedId', 'courseCode', 'grades', 'subjects'],
  },
  'classes.csv': {
    required: ['sourcedId', 'title', 'courseSourcedId', 'schoolSourcedId', 'termSourcedIds'],
    optional: [
      'status',
      'dateLastModified',
      'grades',
      'classCode',
      'classType',
      'location',
      'subjects',
      'periods',
    ],
  },
  'users.csv': {
    required: ['sourcedId', 'enabledUser', 'username', 'givenName', 'familyName'],
    optional: ['status', 'dateLastModified', 'userIds', 'middleName', 'identifier', 'email', 'password'],
  },
  'roles.csv': {
    required: ['sourcedId', 'userSourcedId', 'roleType', 'role', 'orgSourcedId'],
    optional: ['status', 'dateLastModified', 'beginDate', 'endDate', 'userProfileSourcedId'],
  },
  'enrollments.csv': {
    required: ['sourcedId', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role'],
    optional: ['status', 'dateLastModified', 'primary', 'beginDate', 'endDate'],
  },
};

/** A file's header mapped to column positions (case-insensitive names, as SIS exports vary in case). */
export class RosterHeader {
  private readonly index = new Map<string, number>();

  constructor(cells: readonly string[]) {
    cells.forEach((cell, i) => {
      const name = cell.trim().toLowerCase();
      if (name && !this.index.has(name)) this.index.set(name, i);
    });
  }

  /** The first required column the header lacks, if any. */
  missing(file: RosterDataFile): string | undefined {
    return ROSTER_COLUMNS[file].required.find((c) => !this.index.has(c.toLowerCase()));
  }

  /** The row as `{ column: trimmed value }` for the columns this site reads ('' when absent or empty). */
  read(file: RosterDataFile, cells: readonly string[]): RosterRow {
    const { required, optional } = ROSTER_COLUMNS[file];
    const row: RosterRow = {};
    for (const column of [...required, ...optional]) {
      const at = this.index.get(column.toLowerCase());
      row[column] = at === undefined ? '' : (cells[at] ?? '').trim();
    }
    return row;
  }
}

export type RosterRow = Record<string, string>;

/** One line of a file as read: its line number (the header is 1) and its values by column. */
export interface RosterLine {
  line: number;
  row: RosterRow;
}

/** The sha-256 of `values` in the order given (the columns a table stores, never the file's own order). */
export function rowHash(values: readonly (string | number | boolean | null)[]): string {
  return createHash('sha256').update(JSON.stringify(values)).digest('hex');
}

/** `active` (or empty) and `tobedeleted`; anything else is a bad value. */
export function parseStatus(value: string): 'active' | 'tobedeleted' | null {
  const status = value.toLowerCase();
  if (status === '' || status === 'active') return 'active';
  if (status === 'tobedeleted') return 'tobedeleted';
  return null;
}

/** A YYYY-MM-DD calendar date, or null. */
export function parseDate(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : value;
}

/** OneRoster booleans are `true` / `false`. */
export function parseBoolean(value: string): boolean | null {
  const v = value.toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  return null;
}

/** The comma list of a column such as termSourcedIds. */
export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}
