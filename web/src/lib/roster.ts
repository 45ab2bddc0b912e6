import { useQuery } from '@tanstack/react-query';
import type { ClassSummary, School } from '@district/contracts/identity';
import { api } from './api-client';
import { isAdmin, type User } from './auth';
import {
  isBoolean,
  isNullableString,
  isString,
  isUuid,
  matchShape,
  pickShape,
  type FieldChecks,
} from './shape-guard';

/**
 * The caller's place in the district's roster (ADR 0042): GET /api/classes (their own classes) and GET /api/schools
 * (with `canManage`). Shared, not a feature's, because the navbar decides from them which links to show and several
 * features (district, quizzes, grades) offer the caller's classes; one fetcher and one query key per endpoint.
 * Checked without zod: the navbar asks on the first page of a visit (ADR 0023).
 */
const isInt = (v: unknown): v is number => Number.isInteger(v);

const CLASS_FIELDS: FieldChecks<ClassSummary> = {
  id: isUuid,
  title: isString,
  schoolId: isUuid,
  schoolName: isString,
  term: isNullableString,
  courseCode: isNullableString,
  active: isBoolean,
  teacherCount: isInt,
  studentCount: isInt,
};

const SCHOOL_FIELDS: FieldChecks<School> = {
  id: isUuid,
  name: isString,
  identifier: isNullableString,
  active: isBoolean,
  classCount: isInt,
  canManage: isBoolean,
};

function listOf<T>(fields: FieldChecks<T>) {
  return (value: unknown): T[] | undefined =>
    Array.isArray(value) && value.every((v) => matchShape(v, fields))
      ? value.map((v: T) => pickShape(v, fields))
      : undefined;
}

export const parseClassList = listOf(CLASS_FIELDS);
export const parseSchoolList = listOf(SCHOOL_FIELDS);

export const myClassesQueryKey = ['roster', 'classes', 'mine'] as const;
export const schoolsQueryKey = ['roster', 'schools'] as const;

/** The roster changes with an import, not by the minute: asked once a visit, again on focus after a minute. */
const ROSTER_STALE_MS = 60_000;

export const getMyClasses = (signal?: AbortSignal): Promise<ClassSummary[]> =>
  api.get('/api/classes', { guard: parseClassList, signal });

export const getSchools = (signal?: AbortSignal): Promise<School[]> =>
  api.get('/api/schools', { guard: parseSchoolList, signal });

/** The caller's own classes (a teacher's, a student's); an installation without classes answers []. */
export function useMyClasses(enabled = true) {
  return useQuery({
    queryKey: myClassesQueryKey,
    queryFn: ({ signal }) => getMyClasses(signal),
    enabled,
    staleTime: ROSTER_STALE_MS,
  });
}

/** Every school for a district administrator; anyone else's the schools they administer or have a class in. */
export function useSchools(enabled = true) {
  return useQuery({
    queryKey: schoolsQueryKey,
    queryFn: ({ signal }) => getSchools(signal),
    enabled,
    staleTime: ROSTER_STALE_MS,
  });
}

/**
 * What the roster adds to a signed-in person's navigation: 'My Classes' when they have classes, 'Schools' for a
 * school administrator (a teacher with a school they manage). The district administrator's links are on the admin
 * dashboard. A failed or unanswered request adds nothing: the spec's one-school site looks as before.
 */
export function useRosterLinks(user: User | null): { classes: boolean; schools: boolean } {
  const member = Boolean(user?.approved) && !isAdmin(user);
  const classes = useMyClasses(member);
  const schools = useSchools(member && user?.role === 'teacher');
  return {
    classes: member && (classes.data?.length ?? 0) > 0,
    schools: member && (schools.data ?? []).some((s) => s.canManage),
  };
}
