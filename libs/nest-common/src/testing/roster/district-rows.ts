import type { DistrictModel } from './district-model';
import { SUBJECTS } from './names';
import { ONEROSTER_HEADERS, type OneRosterDataFile, type OneRosterRow } from './oneroster-csv';

/** One CSV row in its file's column order. */
export type CsvRecord = string[];

export function record<F extends OneRosterDataFile>(file: F, row: OneRosterRow<F>): CsvRecord {
  const values = row as Record<string, string | undefined>;
  return ONEROSTER_HEADERS[file].map((column) => values[column] ?? '');
}

/** A row the generator wrote wrong on purpose (`errors: true`): where it is, and which column an import blames. */
export interface InjectedError {
  file: OneRosterDataFile;
  /** 1 is the header. */
  line: number;
  field: string;
  sourcedId: string;
  reason: string;
}

export const DISTRICT_ORG_SOURCED_ID = 'org-district';

export interface RowContext {
  model: DistrictModel;
  /** users.csv's password for every generated person ('' leaves the column empty). */
  password: string;
}

export function sessionIds(schoolYear: number) {
  return { year: `as-${schoolYear}`, fall: `as-${schoolYear}-fall`, spring: `as-${schoolYear}-spring` };
}

// A bulk file's rows leave status and dateLastModified empty, as the CSV binding asks of bulk files; a delta's fill them.

export function* orgRows({ model }: RowContext): Generator<CsvRecord> {
  yield record('orgs.csv', {
    sourcedId: DISTRICT_ORG_SOURCED_ID,
    name: 'Generated School District',
    type: 'district',
    identifier: 'D0001',
  });
  for (let s = 0; s < model.shape.schools; s++)
    yield record('orgs.csv', {
      sourcedId: model.schoolSourcedId(s),
      name: model.schoolName(s),
      type: 'school',
      identifier: `S${1000 + s + 1}`,
      parentSourcedId: DISTRICT_ORG_SOURCED_ID,
    });
}

export function* academicSessionRows({ model }: RowContext): Generator<CsvRecord> {
  const year = model.shape.schoolYear;
  const ids = sessionIds(year);
  const schoolYear = String(year);
  yield record('academicSessions.csv', {
    sourcedId: ids.year,
    title: `${year - 1}-${year}`,
    type: 'schoolYear',
    startDate: `${year - 1}-08-17`,
    endDate: `${year}-06-11`,
    schoolYear,
  });
  yield record('academicSessions.csv', {
    sourcedId: ids.fall,
    title: `Fall ${year - 1}`,
    type: 'semester',
    startDate: `${year - 1}-08-17`,
    endDate: `${year - 1}-12-18`,
    parentSourcedId: ids.year,
    schoolYear,
  });
  yield record('academicSessions.csv', {
    sourcedId: ids.spring,
    title: `Spring ${year}`,
    type: 'semester',
    startDate: `${year}-01-05`,
    endDate: `${year}-06-11`,
    parentSourcedId: ids.year,
    schoolYear,
  });
}

export function* courseRows({ model }: RowContext): Generator<CsvRecord> {
  const { year } = sessionIds(model.shape.schoolYear);
  for (let s = 0; s < model.shape.schools; s++)
    for (const subject of model.subjectsAt(s))
      yield record('courses.csv', {
        sourcedId: model.courseSourcedId(s, subject),
        schoolYearSourcedId: year,
        title: SUBJECTS[subject].title,
        courseCode: SUBJECTS[subject].code,
        orgSourcedId: model.schoolSourcedId(s),
        subjects: SUBJECTS[subject].title,
      });
}

export function* classRows({ model }: RowContext): Generator<CsvRecord> {
  const { year } = sessionIds(model.shape.schoolYear);
  for (let s = 0; s < model.shape.schools; s++)
    for (let c = 0; c < model.classesAt(s); c++) {
      const klass = model.classAt(s, c);
      yield record('classes.csv', {
        sourcedId: model.classSourcedId(klass),
        title: model.classTitle(klass),
        courseSourcedId: model.courseSourcedId(s, klass.subject),
        classCode: `${SUBJECTS[klass.subject].code}-${klass.period + 1}-${klass.section + 1}`,
        classType: 'scheduled',
        location: `Room ${100 + (c % 60)}`,
        schoolSourcedId: model.schoolSourcedId(s),
        termSourcedIds: year,
        subjects: SUBJECTS[klass.subject].title,
        periods: String(klass.period + 1),
      });
    }
}

export function userRow(
  { model, password }: RowContext,
  user: number,
  overrides: OneRosterRow<'users.csv'> = {},
): CsvRecord {
  const pinned = model.pinnedOf(user);
  return record('users.csv', {
    sourcedId: model.userSourcedId(user),
    enabledUser: 'true',
    username: model.username(user),
    givenName: model.givenName(user),
    familyName: model.familyName(user),
    identifier: model.identifier(user),
    email: model.email(user),
    grades: model.grade(user),
    password: pinned ? (pinned.password ?? '') : password,
    primaryOrgSourcedId: model.schoolSourcedId(model.schoolOf(user)),
    ...overrides,
  });
}

export function* userRows(context: RowContext): Generator<CsvRecord> {
  for (let u = 0; u < context.model.userCount; u++) yield userRow(context, u);
}

/** Every person's primary role at their school; each school's administrator holds `administrator`. */
export function* roleRows({ model }: RowContext): Generator<CsvRecord> {
  for (let u = 0; u < model.userCount; u++) {
    const userSourcedId = model.userSourcedId(u);
    yield record('roles.csv', {
      sourcedId: `rol-${userSourcedId}`,
      userSourcedId,
      roleType: 'primary',
      role: model.kindOf(u),
      orgSourcedId: model.schoolSourcedId(model.schoolOf(u)),
    });
  }
}

export function* enrollmentRows({ model }: RowContext): Generator<CsvRecord> {
  for (const e of model.enrollments())
    yield record('enrollments.csv', {
      sourcedId: model.enrollmentSourcedId(e.n),
      classSourcedId: model.classSourcedId(e.klass),
      schoolSourcedId: model.schoolSourcedId(e.klass.school),
      userSourcedId: model.userSourcedId(e.user),
      role: e.role,
      primary: e.role === 'teacher' ? 'true' : 'false',
    });
}

/**
 * The known bad rows `errors: true` appends to the end of their files (so their lines follow from the counts): an
 * unknown orgSourcedId, a duplicate email, a bad role, a missing required field and a bad date. Each is alone in its
 * row, and nothing else refers to the rows in error.
 */
export function injectedErrorRows(
  model: DistrictModel,
): Map<OneRosterDataFile, Array<{ row: CsvRecord; error: InjectedError }>> {
  const rows = new Map<OneRosterDataFile, Array<{ row: CsvRecord; error: InjectedError }>>();
  const lineAfter = (file: OneRosterDataFile, count: number) => {
    const list = rows.get(file) ?? [];
    rows.set(file, list);
    return { list, line: count + 2 + list.length };
  };
  const add = (
    file: OneRosterDataFile,
    count: number,
    row: CsvRecord,
    e: Omit<InjectedError, 'file' | 'line'>,
  ) => {
    const { list, line } = lineAfter(file, count);
    list.push({ row, error: { file, line, ...e } });
  };
  const school = model.schoolSourcedId(0);
  const domain = model.shape.domain;
  add(
    'users.csv',
    model.userCount,
    record('users.csv', {
      sourcedId: 'err-usr-missing-given-name',
      enabledUser: 'true',
      username: 'err.missing.given',
      familyName: 'Nameless',
      email: `err.missing.given@${domain}`,
      primaryOrgSourcedId: school,
    }),
    { field: 'givenName', sourcedId: 'err-usr-missing-given-name', reason: 'missing required field' },
  );
  add(
    'users.csv',
    model.userCount,
    record('users.csv', {
      sourcedId: 'err-usr-duplicate-email',
      enabledUser: 'true',
      username: 'err.duplicate.email',
      givenName: 'Dup',
      familyName: 'Licate',
      email: model.email(0),
      primaryOrgSourcedId: school,
    }),
    { field: 'email', sourcedId: 'err-usr-duplicate-email', reason: 'duplicate email' },
  );
  const teacher = model.userSourcedId(model.teacherUser(0, 0));
  add(
    'roles.csv',
    model.userCount,
    record('roles.csv', {
      sourcedId: 'err-rol-unknown-org',
      userSourcedId: teacher,
      roleType: 'secondary',
      role: 'teacher',
      orgSourcedId: 'org-does-not-exist',
    }),
    { field: 'orgSourcedId', sourcedId: 'err-rol-unknown-org', reason: 'unknown orgSourcedId' },
  );
  add(
    'roles.csv',
    model.userCount,
    record('roles.csv', {
      sourcedId: 'err-rol-bad-role',
      userSourcedId: teacher,
      roleType: 'secondary',
      role: 'wizard',
      orgSourcedId: school,
    }),
    { field: 'role', sourcedId: 'err-rol-bad-role', reason: 'bad role' },
  );
  add(
    'enrollments.csv',
    model.enrollmentCount(),
    record('enrollments.csv', {
      sourcedId: 'err-enr-bad-date',
      classSourcedId: model.classSourcedId(model.classAt(0, 0)),
      schoolSourcedId: school,
      userSourcedId: model.userSourcedId(0),
      role: 'teacher',
      primary: 'false',
      beginDate: `${model.shape.schoolYear}-13-32`,
    }),
    { field: 'beginDate', sourcedId: 'err-enr-bad-date', reason: 'bad date' },
  );
  return rows;
}
