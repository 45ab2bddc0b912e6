import { districtZipStream, type DistrictOptions } from './generate-district';
import { bytesOf, readDistrictZip } from './read-district-zip';

const zipBytes = (options: DistrictOptions) => bytesOf(districtZipStream(options).stream);
const headerOf = (text: string) => text.slice(0, text.indexOf('\n'));

async function district(options: DistrictOptions) {
  const result = districtZipStream(options);
  const bytes = await bytesOf(result.stream);
  const zip = await readDistrictZip(bytes);
  const files = new Map(zip.names.map((name) => [name, zip.text(name)]));
  return { bytes, files, rows: zip.rows, result };
}

// The OneRoster 1.2 CSV binding's columns, written out here rather than taken from the generator's own table.
const ONEROSTER_1_2_HEADERS: Record<string, string> = {
  'manifest.csv': 'propertyName,value',
  'orgs.csv': 'sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId',
  'academicSessions.csv':
    'sourcedId,status,dateLastModified,title,type,startDate,endDate,parentSourcedId,schoolYear',
  'courses.csv':
    'sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode,grades,orgSourcedId,subjects,subjectCodes',
  'classes.csv':
    'sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,' +
    'termSourcedIds,subjects,subjectCodes,periods',
  'users.csv':
    'sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,' +
    'email,sms,phone,agentSourcedIds,grades,password,userMasterIdentifier,resourceSourcedIds,preferredGivenName,' +
    'preferredMiddleName,preferredFamilyName,primaryOrgSourcedId,pronouns',
  'roles.csv':
    'sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId,userProfileSourcedId',
  'enrollments.csv':
    'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate',
};

const SHAPE = { schools: 5, teachers: 40, students: 2000, seed: 7 } satisfies DistrictOptions;

describe('the district generator', () => {
  let d: Awaited<ReturnType<typeof district>>;
  beforeAll(async () => {
    d = await district(SHAPE);
  });

  it('writes a OneRoster 1.2 bulk zip: the manifest, then the seven data files with the binding’s exact headers', () => {
    expect([...d.files.keys()]).toEqual([
      'manifest.csv',
      'orgs.csv',
      'academicSessions.csv',
      'courses.csv',
      'classes.csv',
      'users.csv',
      'roles.csv',
      'enrollments.csv',
    ]);
    for (const [name, text] of d.files)
      expect([name, headerOf(text)]).toEqual([name, ONEROSTER_1_2_HEADERS[name]]);
    const manifest = Object.fromEntries(d.rows('manifest.csv').map((r) => [r.propertyName, r.value]));
    expect(manifest['manifest.version']).toBe('1.0');
    expect(manifest['oneroster.version']).toBe('1.2');
    for (const file of ['orgs', 'academicSessions', 'courses', 'classes', 'users', 'roles', 'enrollments'])
      expect([file, manifest[`file.${file}`]]).toEqual([file, 'bulk']);
    expect(manifest['file.demographics']).toBe('absent');
    expect(manifest['file.results']).toBe('absent');
  });

  it('has the district, its schools, a school year and two semesters, and the counts it reports', () => {
    const orgs = d.rows('orgs.csv');
    expect(orgs.filter((o) => o.type === 'district')).toHaveLength(1);
    const schools = orgs.filter((o) => o.type === 'school');
    expect(schools).toHaveLength(5);
    expect(new Set(schools.map((s) => s.name)).size).toBe(5);
    expect(d.rows('academicSessions.csv').map((s) => s.type)).toEqual(['schoolYear', 'semester', 'semester']);
    const { counts } = d.result;
    for (const [file, count] of Object.entries(counts.rows))
      expect([file, d.rows(file).length]).toEqual([file, count]);
    expect(counts.rows['users.csv']).toBe(5 + 40 + 2000);
    // Four classes per pupil, at most 40 pupils each, one teacher each.
    expect(counts.classes).toBe(d.rows('classes.csv').length);
    expect(counts.classes).toBeGreaterThanOrEqual((2000 * 4) / 40);
    expect(counts.classes).toBeLessThanOrEqual((2000 * 4) / 40 + 5 * 4);
    expect(counts.enrollments).toBe(2000 * 4 + counts.classes);
  });

  it('refers only to rows that exist: every enrolment’s class and user, every class’s course and school', () => {
    const users = new Map(d.rows('users.csv').map((u) => [u.sourcedId, u]));
    const classes = new Map(d.rows('classes.csv').map((c) => [c.sourcedId, c]));
    const courses = new Set(d.rows('courses.csv').map((c) => c.sourcedId));
    const orgs = new Set(d.rows('orgs.csv').map((o) => o.sourcedId));
    const sessions = new Set(d.rows('academicSessions.csv').map((s) => s.sourcedId));
    const problems: string[] = [];
    for (const c of classes.values())
      if (!courses.has(c.courseSourcedId) || !orgs.has(c.schoolSourcedId) || !sessions.has(c.termSourcedIds))
        problems.push(`class ${c.sourcedId}`);
    const teachersOf = new Map<string, number>();
    const pupilsOf = new Map<string, number>();
    const classesOfPupil = new Map<string, Set<string>>();
    const enrollments = d.rows('enrollments.csv');
    for (const e of enrollments) {
      const klass = classes.get(e.classSourcedId);
      const user = users.get(e.userSourcedId);
      if (!klass || !user) problems.push(`enrolment ${e.sourcedId} refers to nothing`);
      else if (
        e.schoolSourcedId !== klass.schoolSourcedId ||
        user.primaryOrgSourcedId !== klass.schoolSourcedId
      )
        problems.push(`enrolment ${e.sourcedId} crosses schools`);
      if (e.role === 'teacher') {
        if (e.primary !== 'true') problems.push(`teacher ${e.sourcedId} not primary`);
        teachersOf.set(e.classSourcedId, (teachersOf.get(e.classSourcedId) ?? 0) + 1);
      } else if (e.role === 'student') {
        pupilsOf.set(e.classSourcedId, (pupilsOf.get(e.classSourcedId) ?? 0) + 1);
        const mine = classesOfPupil.get(e.userSourcedId) ?? new Set<string>();
        mine.add(e.classSourcedId);
        classesOfPupil.set(e.userSourcedId, mine);
      } else problems.push(`enrolment ${e.sourcedId} role ${e.role}`);
    }
    expect(problems).toEqual([]);
    expect(new Set(enrollments.map((e) => e.sourcedId)).size).toBe(enrollments.length);
    const sizes = [...classes.keys()].map((id) => [teachersOf.get(id), pupilsOf.get(id) ?? 0] as const);
    expect(sizes.filter(([teachers]) => teachers !== 1)).toEqual([]);
    expect(Math.max(...sizes.map(([, pupils]) => pupils))).toBeLessThanOrEqual(40);
    expect(Math.min(...sizes.map(([, pupils]) => pupils))).toBeGreaterThan(30);
    expect(classesOfPupil.size).toBe(2000);
    expect(new Set([...classesOfPupil.values()].map((mine) => mine.size))).toEqual(new Set([4]));
  });

  it('gives every person one primary role at their school and every school one administrator', () => {
    const roles = d.rows('roles.csv');
    const users = d.rows('users.csv');
    expect(roles).toHaveLength(users.length);
    const roleOf = new Map(roles.map((r) => [r.userSourcedId, r]));
    const wrong = users.filter(
      (u) =>
        roleOf.get(u.sourcedId)?.roleType !== 'primary' ||
        roleOf.get(u.sourcedId)?.orgSourcedId !== u.primaryOrgSourcedId,
    );
    expect(wrong).toEqual([]);
    const admins = roles.filter((r) => r.role === 'administrator');
    expect(new Set(admins.map((a) => a.orgSourcedId)).size).toBe(5);
    expect(admins).toHaveLength(5);
    expect(roles.filter((r) => r.role === 'teacher')).toHaveLength(40);
    expect(roles.filter((r) => r.role === 'student')).toHaveLength(2000);
  });

  it('names people beyond ASCII, with unique site-valid usernames and unique emails <username>@<domain>', () => {
    const users = d.rows('users.csv');
    expect(new Set(users.map((u) => u.email)).size).toBe(users.length);
    expect(new Set(users.map((u) => u.username)).size).toBe(users.length);
    const wrong = users.filter(
      (u) =>
        !/^[a-z0-9._-]{1,30}$/.test(u.username) ||
        u.email !== `${u.username}@schools.example` ||
        !u.givenName ||
        !u.familyName ||
        u.password !== '' ||
        u.enabledUser !== 'true',
    );
    expect(wrong).toEqual([]);
    const names = users.map((u) => `${u.givenName} ${u.familyName}`).join('\n');
    expect(names).toMatch(/[\u0080-\uffff]/);
    expect(names).toMatch(/Nguyễn|Łucja|Çelik|Øyvind|Zoë|María José/);
  });

  it('is deterministic: the same seed gives the same bytes, another seed other people', async () => {
    expect((await zipBytes(SHAPE)).equals(d.bytes)).toBe(true);
    const other = await district({ ...SHAPE, seed: 8 });
    expect(other.bytes.equals(d.bytes)).toBe(false);
    expect(other.rows('users.csv').map((u) => u.username)).not.toEqual(
      d.rows('users.csv').map((u) => u.username),
    );
  });

  it('fills every password with --password', async () => {
    const withPasswords = await district({ ...SHAPE, students: 50, password: 'Correct-horse-9' });
    expect(new Set(withPasswords.rows('users.csv').map((u) => u.password))).toEqual(
      new Set(['Correct-horse-9']),
    );
  });

  it('appends the known bad rows at the lines it reports, with errors', async () => {
    const bad = await district({ ...SHAPE, students: 100, errors: true });
    expect(bad.result.errors.map((e) => e.reason).sort()).toEqual(
      ['bad date', 'bad role', 'duplicate email', 'missing required field', 'unknown orgSourcedId'].sort(),
    );
    const orgs = new Set(bad.rows('orgs.csv').map((o) => o.sourcedId));
    const users = bad.rows('users.csv');
    for (const e of bad.result.errors) {
      const lines = (bad.files.get(e.file) ?? '').trimEnd().split('\n');
      expect(lines[e.line - 1].startsWith(`${e.sourcedId},`)).toBe(true);
      const row = bad.rows(e.file)[e.line - 2];
      const value = row[e.field];
      if (e.reason === 'missing required field') expect(value).toBe('');
      if (e.reason === 'duplicate email') expect(users.filter((u) => u.email === value)).toHaveLength(2);
      if (e.reason === 'unknown orgSourcedId') expect(orgs.has(value)).toBe(false);
      if (e.reason === 'bad role') expect(['administrator', 'teacher', 'student']).not.toContain(value);
      if (e.reason === 'bad date') expect(Number.isNaN(Date.parse(`${value}T00:00:00Z`))).toBe(true);
    }
    expect(bad.result.counts.rows['users.csv']).toBe(5 + 40 + 100 + 2);
  });

  it('writes a delta of about 1 % of people and enrolments against the same seed’s bulk', async () => {
    const delta = await district({ ...SHAPE, deltaPercent: 1 });
    expect([...delta.files.keys()]).toEqual(['manifest.csv', 'users.csv', 'enrollments.csv']);
    const manifest = Object.fromEntries(delta.rows('manifest.csv').map((r) => [r.propertyName, r.value]));
    expect([manifest['file.users'], manifest['file.enrollments'], manifest['file.orgs']]).toEqual([
      'delta',
      'delta',
      'absent',
    ]);
    const bulkUsers = new Map(d.rows('users.csv').map((u) => [u.sourcedId, u]));
    const bulkEnrollments = new Map(d.rows('enrollments.csv').map((e) => [e.sourcedId, e]));
    const bulkPairs = new Set(d.rows('enrollments.csv').map((e) => `${e.classSourcedId}/${e.userSourcedId}`));
    const classes = new Set(d.rows('classes.csv').map((c) => c.sourcedId));
    const users = delta.rows('users.csv');
    expect(users.length).toBe(Math.round(2045 / 100));
    let renamed = 0;
    for (const u of users) {
      const before = bulkUsers.get(u.sourcedId);
      expect(before).toBeDefined();
      expect(u.dateLastModified).not.toBe('');
      expect(u.email).toBe(before?.email);
      if (u.status === 'active') {
        renamed++;
        expect(u.familyName).not.toBe(before?.familyName);
      } else expect(u.status).toBe('tobedeleted');
    }
    expect(renamed).toBeGreaterThan(users.length / 2);
    const leaving = new Set(users.filter((u) => u.status === 'tobedeleted').map((u) => u.sourcedId));
    const enrollments = delta.rows('enrollments.csv');
    const added = enrollments.filter((e) => e.status === 'active');
    const dropped = enrollments.filter((e) => e.status === 'tobedeleted');
    expect(added.length).toBeGreaterThan(30);
    expect(dropped.length).toBeGreaterThan(30);
    for (const e of dropped) expect(bulkEnrollments.get(e.sourcedId)?.userSourcedId).toBe(e.userSourcedId);
    for (const e of added) {
      expect(bulkEnrollments.has(e.sourcedId)).toBe(false);
      expect(classes.has(e.classSourcedId)).toBe(true);
      expect(bulkUsers.has(e.userSourcedId)).toBe(true);
      expect(leaving.has(e.userSourcedId)).toBe(false);
      expect(bulkPairs.has(`${e.classSourcedId}/${e.userSourcedId}`)).toBe(false);
    }
    // A leaving pupil's enrolments all go with them.
    for (const id of leaving)
      expect(dropped.filter((e) => e.userSourcedId === id)).toHaveLength(
        d.rows('enrollments.csv').filter((e) => e.userSourcedId === id).length,
      );
    expect(delta.result.counts.delta?.enrollments).toBe(enrollments.length);
  });
});
