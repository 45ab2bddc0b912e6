import { record, userRow, type CsvRecord, type RowContext } from './district-rows';
import { seededRandom } from './random';

export interface DeltaCounts {
  /** users.csv rows: renames plus people to be deleted. */
  users: number;
  renamed: number;
  deletedUsers: number;
  /** enrollments.csv rows: new ones plus ones to be deleted (the deleted people's included). */
  enrollments: number;
  addedEnrollments: number;
  droppedEnrollments: number;
}

export interface DeltaPlan {
  counts: DeltaCounts;
  users(): Generator<CsvRecord>;
  enrollments(): Generator<CsvRecord>;
}

/**
 * What changes between the bulk zip of a seed and its delta: `percent` of the people (four in five renamed, one in
 * five of those a pupil who leaves: their row and their enrolments `tobedeleted`) and `percent` of the enrolments
 * (half of them pupils moved into one more section of a period, half dropped). The pinned people and the schools'
 * administrators are never touched. Rows carry status and dateLastModified, as a delta's must.
 */
export function planDelta(context: RowContext, percent: number): DeltaPlan {
  const { model } = context;
  if (!(percent > 0 && percent <= 50)) throw new Error('deltaPercent must be above 0 and at most 50');
  const random = seededRandom(model.shape.seed, `delta:${percent}`);
  const modified = `${model.shape.schoolYear - 1}-10-01T08:00:00.000Z`;
  const firstTeacher = model.shape.schools;
  const firstStudent = model.shape.schools + model.shape.teachers;
  const touchable = (u: number) => u >= firstTeacher && !model.pinnedOf(u);

  const changedUsers = Math.max(1, Math.round((model.userCount * percent) / 100));
  const deleted = new Set<number>();
  const renamed = new Set<number>();
  const wantDeleted = model.shape.students > 0 ? Math.round(changedUsers / 5) : 0;
  for (let tries = 0; deleted.size < wantDeleted && tries < 100 * changedUsers; tries++) {
    const u = firstStudent + random.int(model.shape.students);
    if (touchable(u)) deleted.add(u);
  }
  for (let tries = 0; renamed.size < changedUsers - deleted.size && tries < 100 * changedUsers; tries++) {
    const u = firstTeacher + random.int(model.userCount - firstTeacher);
    if (touchable(u) && !deleted.has(u)) renamed.add(u);
  }

  // One pass over the bulk's enrolments: the ones a leaving pupil loses, and the pupils' others to drop from.
  const eligible: number[] = [];
  let deletedUsersEnrollments = 0;
  for (const e of model.enrollments()) {
    if (deleted.has(e.user)) deletedUsersEnrollments++;
    else if (e.role === 'student' && touchable(e.user)) eligible.push(e.n);
  }
  const changedEnrollments = Math.max(1, Math.round((model.enrollmentCount() * percent) / 100));
  const dropped = new Set<number>();
  const wantDropped = Math.min(Math.floor(changedEnrollments / 2), eligible.length);
  while (dropped.size < wantDropped) dropped.add(eligible[random.int(eligible.length)]);

  const added: Array<{ user: number; school: number; classIndex: number }> = [];
  const addedKeys = new Set<string>();
  const wantAdded = changedEnrollments - wantDropped;
  for (
    let tries = 0;
    added.length < wantAdded && tries < 100 * wantAdded && model.shape.students > 0;
    tries++
  ) {
    const user = firstStudent + random.int(model.shape.students);
    if (!touchable(user) || deleted.has(user)) continue;
    const school = model.schoolOf(user);
    const sections = model.sectionsAt(school);
    if (sections < 2) continue;
    const period = random.int(model.shape.classesPerStudent);
    const position = model.periodOrder(school, period).indexOf(user - model.studentUser(school, 0));
    let current = 0;
    while (model.sectionBounds(school, current)[1] <= position) current++;
    const section = (current + 1 + random.int(sections - 1)) % sections;
    const classIndex = period * sections + section;
    const key = `${user}:${school}:${classIndex}`;
    if (addedKeys.has(key)) continue;
    addedKeys.add(key);
    added.push({ user, school, classIndex });
  }

  const counts: DeltaCounts = {
    users: renamed.size + deleted.size,
    renamed: renamed.size,
    deletedUsers: deleted.size,
    enrollments: dropped.size + deletedUsersEnrollments + added.length,
    addedEnrollments: added.length,
    droppedEnrollments: dropped.size + deletedUsersEnrollments,
  };
  return {
    counts,
    *users() {
      for (let u = 0; u < model.userCount; u++) {
        if (renamed.has(u))
          yield userRow(context, u, {
            status: 'active',
            dateLastModified: modified,
            familyName: model.otherFamilyName(u, u),
          });
        else if (deleted.has(u))
          yield userRow(context, u, { status: 'tobedeleted', dateLastModified: modified });
      }
    },
    *enrollments() {
      for (const e of model.enrollments()) {
        if (!dropped.has(e.n) && !deleted.has(e.user)) continue;
        yield record('enrollments.csv', {
          sourcedId: model.enrollmentSourcedId(e.n),
          status: 'tobedeleted',
          dateLastModified: modified,
          classSourcedId: model.classSourcedId(e.klass),
          schoolSourcedId: model.schoolSourcedId(e.klass.school),
          userSourcedId: model.userSourcedId(e.user),
          role: e.role,
          primary: 'false',
        });
      }
      for (const [i, a] of added.entries())
        yield record('enrollments.csv', {
          sourcedId: `enr-new-${String(i + 1).padStart(6, '0')}`,
          status: 'active',
          dateLastModified: modified,
          classSourcedId: model.classSourcedId(model.classAt(a.school, a.classIndex)),
          schoolSourcedId: model.schoolSourcedId(a.school),
          userSourcedId: model.userSourcedId(a.user),
          role: 'student',
          primary: 'false',
        });
    },
  };
}
