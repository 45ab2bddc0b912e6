import type { BusMessage } from '@district/nest-common';
import {
  startTokenServiceForTest,
  type HttpClient,
  type TokenServiceTestApp,
  type TokenServiceTestOptions,
} from '@district/nest-common/testing';
import { defineClassroomService } from '../../src';

export type ClassroomTestOptions = Pick<TokenServiceTestOptions, 'demo' | 'env' | 'schema' | 'runtime'>;
export type ClassroomTestApp = TokenServiceTestApp;

/** Boots the real classroom module on the real database, in a throwaway schema, on a loopback port. */
export function startClassroom(options: ClassroomTestOptions = {}): Promise<ClassroomTestApp> {
  return startTokenServiceForTest('classroom', defineClassroomService, options);
}

/** The people the route specs act as: two teachers (for "another teacher's item"), an admin and a student. */
export interface ClassroomPeople {
  teacher: HttpClient;
  otherTeacher: HttpClient;
  admin: HttpClient;
  student: HttpClient;
}

/**
 * A classroom app, its people, and the events published under `subjects` (a durable of the spec's own), for the
 * route specs of one aggregate.
 */
export async function startClassroomSpec(
  subjects: string,
  durable: string,
): Promise<{ app: ClassroomTestApp; people: ClassroomPeople; events: BusMessage[] }> {
  const app = await startClassroom();
  const people: ClassroomPeople = {
    teacher: (await app.signIn('teacher', { name: 'Ms. Ruiz' })).client,
    otherTeacher: (await app.signIn('teacher', { name: 'Mr. Soto' })).client,
    admin: (await app.signIn('admin')).client,
    student: (await app.signIn('student')).client,
  };
  const events: BusMessage[] = [];
  await app.runtime.bus.subscribe(subjects, async (m) => void events.push(m), { durable });
  return { app, people, events };
}

/** The subjects of the events about one item, in order: those whose data carries `{ [key]: { id } }` or `{ [key]Id }`. */
export function eventSubjectsFor(events: readonly BusMessage[], key: string, id: string): string[] {
  return events
    .filter((e) => {
      const data = e.data as Record<string, unknown>;
      return (data[key] as { id?: string } | undefined)?.id === id || data[`${key}Id`] === id;
    })
    .map((e) => e.subject);
}
