import { Subjects, type RosterClassChangedEvent, type RosterSchoolChangedEvent } from '@district/contracts';
import type { DataSource } from 'typeorm';
import type { EventBus } from '../bus/bus.port';
import { waitFor } from '../bus/test-support';

/** A service under test that keeps the roster projection (ADR 0042): its bus and its database. */
export interface RosterKeeper {
  runtime: { bus: EventBus };
  dataSource: DataSource;
}

let version = 0;

/**
 * identity's class snapshot played on the test runtime's bus; resolves once the service's projection holds it (or a
 * newer one). Versions rise across every call in the test file, as identity's sequence does.
 */
export async function publishClass(
  app: RosterKeeper,
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

/** identity's school snapshot (its administrators), once the service's projection holds it. */
export async function publishSchool(app: RosterKeeper, schoolId: string, adminIds: string[]): Promise<void> {
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
  app: RosterKeeper,
  table: 'roster_classes' | 'roster_schools',
  id: string,
): Promise<number> {
  const rows: { version: string }[] = await app.dataSource.query(
    `SELECT version FROM ${table} WHERE id = $1`,
    [id],
  );
  return rows.length > 0 ? Number(rows[0].version) : 0;
}
