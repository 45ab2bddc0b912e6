import { createWriteStream } from 'node:fs';
import { Readable, type Readable as ReadableStream } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import { ZipFile } from 'yazl';
import { ONEROSTER_MANIFEST_FILES } from '@district/contracts';
import { planDelta, type DeltaCounts } from './district-delta';
import { DistrictModel, type PinnedPerson } from './district-model';
import {
  academicSessionRows,
  classRows,
  courseRows,
  enrollmentRows,
  injectedErrorRows,
  orgRows,
  roleRows,
  userRows,
  type CsvRecord,
  type InjectedError,
  type RowContext,
} from './district-rows';
import { GENERATED_FILES, MANIFEST_HEADER, ONEROSTER_HEADERS, type OneRosterDataFile } from './oneroster-csv';

export interface DistrictOptions {
  /** The same seed and options give the same zip, byte for byte. Default 1. */
  seed?: number | string;
  /** Default 3. */
  schools?: number;
  /** At least one per school. Default 12. */
  teachers?: number;
  /** Default 300. */
  students?: number;
  /** Classes each pupil takes (one per period). Default 4. */
  classesPerStudent?: number;
  /** Pupils per class at most. Default 40. */
  classSize?: number;
  /** Emails are `<username>@<domain>`. Default `schools.example`. */
  domain?: string;
  /** OneRoster's schoolYear (the calendar year the school year ends). Default 2027. */
  schoolYear?: number;
  /** Fills users.csv's password column for every generated person. Default: the column stays empty. */
  password?: string;
  /** People written exactly as given, at the first school; its first class holds the pinned teacher and pupils. */
  pinned?: readonly PinnedPerson[];
  /** Append the known bad rows (see `injectedErrorRows`); `errors` in the result says where. */
  errors?: boolean;
  /** Write a delta zip instead, changing about this percentage of people and of enrolments of the same seed's bulk. */
  deltaPercent?: number;
  /** Deflate the entries (default). `false` stores them: bytes that do not depend on the zlib of the machine. */
  compress?: boolean;
}

export interface DistrictCounts {
  schools: number;
  administrators: number;
  teachers: number;
  students: number;
  /** Rows written per data file (headers excluded, injected bad rows included). */
  rows: Record<OneRosterDataFile, number>;
  classes: number;
  enrollments: number;
  /** Only for a delta zip. */
  delta?: DeltaCounts;
}

export interface DistrictZip {
  counts: DistrictCounts;
  /** The rows written wrong on purpose (`errors: true`), with their file, line and blamed column. */
  errors: InjectedError[];
  /** The zip's bytes, produced as they are read: nothing holds a whole CSV file. */
  stream: ReadableStream;
}

/**
 * Entries carry a fixed modification time in the DOS fields only (no Unix-time extra field), built from local
 * components: the bytes are the same in every time zone.
 */
const FIXED_MTIME = () => new Date(2026, 7, 1, 0, 0, 0);

const DEFAULTS = {
  seed: 1,
  schools: 3,
  teachers: 12,
  students: 300,
  classesPerStudent: 4,
  classSize: 40,
  domain: 'schools.example',
  schoolYear: 2027,
} as const;

function modelOf(options: DistrictOptions): DistrictModel {
  return new DistrictModel({
    seed: options.seed ?? DEFAULTS.seed,
    schools: options.schools ?? DEFAULTS.schools,
    teachers: options.teachers ?? DEFAULTS.teachers,
    students: options.students ?? DEFAULTS.students,
    classesPerStudent: options.classesPerStudent ?? DEFAULTS.classesPerStudent,
    classSize: options.classSize ?? DEFAULTS.classSize,
    domain: options.domain ?? DEFAULTS.domain,
    schoolYear: options.schoolYear ?? DEFAULTS.schoolYear,
    pinned: options.pinned ?? [],
  });
}

/** Rows per chunk handed to the zip: one deflate call per chunk, not per row, and never a whole file in memory. */
const ROWS_PER_CHUNK = 1000;

function* csvChunks(header: readonly string[], rows: Iterable<CsvRecord>): Generator<Buffer> {
  let batch: CsvRecord[] = [[...header]];
  for (const row of rows) {
    batch.push(row);
    if (batch.length >= ROWS_PER_CHUNK) {
      yield Buffer.from(stringify(batch), 'utf8');
      batch = [];
    }
  }
  if (batch.length > 0) yield Buffer.from(stringify(batch), 'utf8');
}

function csvStream(header: readonly string[], rows: Iterable<CsvRecord>): ReadableStream {
  return Readable.from(csvChunks(header, rows), { objectMode: false });
}

function* concat(...parts: Iterable<CsvRecord>[]): Generator<CsvRecord> {
  for (const part of parts) yield* part;
}

/**
 * A OneRoster 1.2 CSV zip of a generated district, as a stream: manifest.csv, then orgs, academicSessions, courses,
 * classes, users, roles and enrollments, each CSV produced row by row as the zip reads it. With `deltaPercent`, a
 * delta zip (users.csv and enrollments.csv only) against the bulk zip of the same options.
 */
export function districtZipStream(options: DistrictOptions = {}): DistrictZip {
  const model = modelOf(options);
  const context: RowContext = { model, password: options.password ?? '' };
  const delta = options.deltaPercent !== undefined ? planDelta(context, options.deltaPercent) : undefined;
  const bad = options.errors && !delta ? injectedErrorRows(model) : new Map<OneRosterDataFile, never[]>();
  const badRows = (file: OneRosterDataFile) => (bad.get(file) ?? []).map((b) => b.row);

  const bulkRows: Record<OneRosterDataFile, () => Iterable<CsvRecord>> = {
    'orgs.csv': () => orgRows(context),
    'academicSessions.csv': () => academicSessionRows(context),
    'courses.csv': () => courseRows(context),
    'classes.csv': () => classRows(context),
    'users.csv': () => userRows(context),
    'roles.csv': () => roleRows(context),
    'enrollments.csv': () => enrollmentRows(context),
  };
  const files: Array<{ file: OneRosterDataFile; rows: () => Iterable<CsvRecord> }> = delta
    ? [
        { file: 'users.csv', rows: () => delta.users() },
        { file: 'enrollments.csv', rows: () => delta.enrollments() },
      ]
    : GENERATED_FILES.map((file) => ({ file, rows: () => concat(bulkRows[file](), badRows(file)) }));

  const mode = delta ? 'delta' : 'bulk';
  const written = new Set(files.map((f) => f.file.replace(/\.csv$/, '')));
  const manifest: CsvRecord[] = [
    ['manifest.version', '1.0'],
    ['oneroster.version', '1.2'],
    ...ONEROSTER_MANIFEST_FILES.map((name) => [`file.${name}`, written.has(name) ? mode : 'absent']),
    ['source.systemName', 'district generator'],
    ['source.systemCode', `seed-${options.seed ?? DEFAULTS.seed}`],
  ];

  const zip = new ZipFile();
  const entry = { mtime: FIXED_MTIME(), forceDosTimestamp: true, compress: options.compress ?? true };
  zip.addReadStreamLazy('manifest.csv', entry, (cb) => cb(null, csvStream(MANIFEST_HEADER, manifest)));
  for (const { file, rows } of files)
    zip.addReadStreamLazy(file, entry, (cb) => cb(null, csvStream(ONEROSTER_HEADERS[file], rows())));
  zip.end();
  const stream = zip.outputStream as ReadableStream;
  zip.on('error', (error: Error) => stream.destroy(error));

  const rows = {} as Record<OneRosterDataFile, number>;
  const schools = model.shape.schools;
  const bulkCounts: Record<OneRosterDataFile, number> = {
    'orgs.csv': 1 + schools,
    'academicSessions.csv': 3,
    'courses.csv': model.courseCount(),
    'classes.csv': model.classCount(),
    'users.csv': model.userCount,
    'roles.csv': model.userCount,
    'enrollments.csv': model.enrollmentCount(),
  };
  for (const file of GENERATED_FILES)
    rows[file] = delta
      ? file === 'users.csv'
        ? delta.counts.users
        : file === 'enrollments.csv'
          ? delta.counts.enrollments
          : 0
      : bulkCounts[file] + (bad.get(file)?.length ?? 0);
  return {
    counts: {
      schools,
      administrators: schools,
      teachers: model.shape.teachers,
      students: model.shape.students,
      rows,
      classes: model.classCount(),
      enrollments: model.enrollmentCount(),
      ...(delta ? { delta: delta.counts } : {}),
    },
    errors: [...bad.values()].flat().map((b) => b.error),
    stream,
  };
}

/** Writes the zip `districtZipStream(options)` produces to `options.out`. */
export async function generateDistrict(
  options: DistrictOptions & { out: string },
): Promise<{ path: string; counts: DistrictCounts; errors: InjectedError[] }> {
  const { stream, counts, errors } = districtZipStream(options);
  await pipeline(stream, createWriteStream(options.out));
  return { path: options.out, counts, errors };
}
