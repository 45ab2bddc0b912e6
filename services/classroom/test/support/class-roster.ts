import { Subjects, type RosterClassChangedEvent, type RosterSchoolChangedEvent } from '@district/contracts';
import { waitFor } from '@district/nest-common/testing';
import type { ClassroomTestApp } from './classroom-app';

let version = 0;

/** identity's class snapshot played on the test runtime's bus; resolves once classroom's projection holds it. */
export async function publishClass(
  app: ClassroomTestApp,
  snapshot: Pick<RosterClassChangedEvent, 'classId' | 'schoolId' | 'teacherIds' | 'studentIds'> &
    Partial<RosterClassChangedEvent>,
): Promise<RosterClassChangedEvent> {
  version += 1;
  const event: RosterClassChangedEvent = {
    title: `Class ${snapshot.classId.slice(0, 4)}`,
    active: true,
    version,
    ...snapshot,
  };
  await app.runtime.bus.publish(Subjects.identityRosterClassChanged, event);
  await waitFor(
    async () => (await heldVersion(app, 'roster_classes', event.classId)) >= event.version,
    `class ${event.classId} applied`,
  );
  return event;
}

/** identity's school snapshot (its administrators), once classroom's projection holds it. */
export async function publishSchool(
  app: ClassroomTestApp,
  schoolId: string,
  adminIds: string[],
): Promise<void> {
  version += 1;
  const event: RosterSchoolChangedEvent = {
    schoolId,
    name: `School ${schoolId.slice(0, 4)}`,
    active: true,
    version,
    adminIds,
  };
  await app.runtime.bus.publish(Subjects.identityRosterSchoolChanged, event);
  await waitFor(
    async () => (await heldVersion(app, 'roster_schools', schoolId)) >= event.version,
    `school ${schoolId} applied`,
  );
}

async function heldVersion(
  app: ClassroomTestApp,
  table: 'roster_classes' | 'roster_schools',
  id: string,
): Promise<number> {
  const rows: { version: string }[] = await app.dataSource.query(
    `SELECT version FROM ${table} WHERE id = $1`,
    [id],
  );
  return rows.length > 0 ? Number(rows[0].version) : 0;
}
