import { z } from 'zod';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../common/paging';

/**
 * The district's roster (ADR 0042): schools → classes → enrolments of teachers and students, and the school
 * administrators of each school. identity owns it (imported from OneRoster 1.2 CSV) and publishes each class's
 * and each school's whole membership as a snapshot event; every other service keeps the projection it needs.
 */

/** Largest roster zip accepted (compressed). A district of 40,000 pupils is ~15 MB; the headroom is for extra columns. */
export const ROSTER_ZIP_MAX_BYTES = 200 * 1024 * 1024;
/** Largest uncompressed size of all the zip's CSV files together, and the largest inflation ratio of any entry. */
export const ROSTER_UNZIPPED_MAX_BYTES = 2 * 1024 * 1024 * 1024;
export const ROSTER_MAX_COMPRESSION_RATIO = 200;
/** At most this many rows in error are listed on an import (the count goes on); the rest is the same mistake. */
export const ROSTER_IMPORT_ERRORS_MAX = 10_000;

/** The eight files of a OneRoster 1.2 CSV zip this site reads, in the order an import applies them. */
export const ONEROSTER_FILES = [
  'manifest.csv',
  'orgs.csv',
  'academicSessions.csv',
  'courses.csv',
  'classes.csv',
  'users.csv',
  'roles.csv',
  'enrollments.csv',
] as const;
export type OneRosterFile = (typeof ONEROSTER_FILES)[number];

/**
 * Every `file.<name>` property a OneRoster 1.2 manifest names, each `bulk`, `delta` or `absent`: what a zip this site
 * writes (the district generator's, the gradebook export) lists in its manifest.
 */
export const ONEROSTER_MANIFEST_FILES = [
  'academicSessions',
  'categories',
  'classes',
  'classResources',
  'courses',
  'courseResources',
  'demographics',
  'enrollments',
  'lineItemLearningObjectiveIds',
  'lineItems',
  'lineItemScoreScales',
  'orgs',
  'resources',
  'resultLearningObjectiveIds',
  'results',
  'resultScoreScales',
  'roles',
  'scoreScales',
  'userProfiles',
  'userResources',
  'users',
] as const;

export const RosterMessages = {
  notAZip:
    'The file is not a zip archive. Upload the OneRoster CSV zip your student information system exported.',
  missingManifest: 'The zip has no manifest.csv: it is not a OneRoster 1.2 CSV export.',
  tooLarge: `The file is larger than ${ROSTER_ZIP_MAX_BYTES / 1024 / 1024} MB.`,
  zipBomb: 'The zip expands far beyond its size and was refused.',
  noFile: 'Choose a OneRoster CSV zip to upload.',
  importNotFound: 'Import not found',
  classNotFound: 'Class not found',
  schoolNotFound: 'School not found',
  interrupted: 'The import stopped before it finished (the server restarted). Upload the file again.',
  /** enrollments.csv: the row's schoolSourcedId is a school, but not the one its class belongs to (classes.csv). */
  enrollmentOtherSchool: (schoolSourcedId: string, classSourcedId: string) =>
    `school ${schoolSourcedId} is not the school of class ${classSourcedId}: an enrolment names its class's school`,
} as const;

export const rosterImportStatusSchema = z.enum(['queued', 'running', 'done', 'failed']);
export type RosterImportStatus = z.infer<typeof rosterImportStatusSchema>;

/** One row an import skipped: the file, its line (1 is the header), the column and why. */
export const rosterImportErrorSchema = z.object({
  file: z.string(),
  line: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export type RosterImportError = z.infer<typeof rosterImportErrorSchema>;

const rosterImportFields = {
  id: z.string().uuid(),
  status: rosterImportStatusSchema,
  fileName: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Rows in the zip's CSV files (headers excluded); known once the import has counted them. */
  total: z.number().int(),
  processed: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  deactivated: z.number().int(),
  /** Rows skipped, whether or not each is listed in `errors`. */
  errorCount: z.number().int(),
  /** Why a failed import failed (a refused zip: the refusal's message). */
  failure: z.string().nullable(),
};

/** POST /api/admin/roster/imports → 202. */
export const rosterImportAcceptedSchema = z.object({
  id: z.string().uuid(),
  status: rosterImportStatusSchema,
});
export type RosterImportAccepted = z.infer<typeof rosterImportAcceptedSchema>;

/** GET /api/admin/roster/imports/{id}. */
export const rosterImportSchema = z.object({
  ...rosterImportFields,
  errors: z.array(rosterImportErrorSchema),
});
export type RosterImport = z.infer<typeof rosterImportSchema>;

/** GET /api/admin/roster/imports: the history, newest first (errors only by count). */
export const rosterImportSummarySchema = z.object(rosterImportFields);
export type RosterImportSummary = z.infer<typeof rosterImportSummarySchema>;

/**
 * GET /api/schools: a district administrator's are every school; anyone else's the schools they administer or have
 * a class in.
 */
export const schoolSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  identifier: z.string().nullable(),
  active: z.boolean(),
  classCount: z.number().int(),
  /** The caller manages it: a district administrator, or this school's administrator. */
  canManage: z.boolean(),
});
export type School = z.infer<typeof schoolSchema>;

/** GET /api/classes (the caller's own; administrators `?schoolId=`). */
export const classSummarySchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  schoolId: z.string().uuid(),
  schoolName: z.string(),
  term: z.string().nullable(),
  courseCode: z.string().nullable(),
  active: z.boolean(),
  teacherCount: z.number().int(),
  studentCount: z.number().int(),
});
export type ClassSummary = z.infer<typeof classSummarySchema>;

/** A person on a class's roster: the email only for the class's teachers and administrators. */
export const classMemberSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string().optional(),
});
export type ClassMember = z.infer<typeof classMemberSchema>;

/** GET /api/classes/{id}. */
export const classDetailSchema = classSummarySchema.extend({
  teachers: z.array(classMemberSchema),
  students: z.array(classMemberSchema),
});
export type ClassDetail = z.infer<typeof classDetailSchema>;

/** The roster roles GET /api/users filters by: `administrator` is a district or a school administrator. */
export const rosterRoleFilterSchema = z.enum(['student', 'teacher', 'administrator'], {
  error: 'role must be one of student, teacher, administrator',
});

/** GET /api/users?q&schoolId&role&approved&limit&cursor — newest first, paged as `common/paging.ts` says. */
export const usersPageQuerySchema = z.object({
  /**
   * Ignoring case: three characters or more match anywhere in name, username or email; one or two match the start of
   * a word of the name, of the username or of the email (ADR 0042, "User search").
   */
  q: z.string().trim().max(200).optional(),
  schoolId: z.string().uuid('schoolId must be a school id').optional(),
  role: rosterRoleFilterSchema.optional(),
  /** `false`: the accounts waiting for approval (or suspended); `true`: the approved ones. */
  approved: z
    .enum(['true', 'false'], { error: 'approved must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(PAGE_LIMIT_MAX, `limit must be at most ${PAGE_LIMIT_MAX}`)
    .default(PAGE_LIMIT_DEFAULT),
  cursor: z.string().max(200).optional(),
});
export type UsersPageQuery = z.infer<typeof usersPageQuerySchema>;

/**
 * identity.roster.class.changed.v1 — one class's whole state after a change (a snapshot, not a diff), so a consumer
 * replaces what it holds when `version` is newer and ignores an older or repeated one: order and redelivery do not
 * matter. An ended class is `active: false` with its last members kept out (empty lists): nothing is deleted.
 */
export const rosterClassChangedEventSchema = z.object({
  classId: z.string().uuid(),
  schoolId: z.string().uuid(),
  title: z.string(),
  active: z.boolean(),
  /** identity's roster sequence at the change: larger is newer, across every class and school. */
  version: z.number().int().nonnegative(),
  teacherIds: z.array(z.string().uuid()),
  studentIds: z.array(z.string().uuid()),
  /** The class's id in the SIS (OneRoster `sourcedId`), for results sent back to it; null for a class made here. */
  sourcedId: z.string().nullable().default(null),
  /** The members' SIS ids (user id → `sourcedId`), for the OneRoster gradebook export. */
  memberSourcedIds: z.record(z.string(), z.string()).default({}),
});
export type RosterClassChangedEvent = z.input<typeof rosterClassChangedEventSchema>;

/** identity.roster.school.changed.v1 — one school's state and its administrators, a snapshot as above. */
export const rosterSchoolChangedEventSchema = z.object({
  schoolId: z.string().uuid(),
  name: z.string(),
  active: z.boolean(),
  version: z.number().int().nonnegative(),
  adminIds: z.array(z.string().uuid()),
});
export type RosterSchoolChangedEvent = z.infer<typeof rosterSchoolChangedEventSchema>;
