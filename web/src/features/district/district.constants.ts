/** Texts of the district's screens (issue #36, ADR 0042). The server's refusals come from RosterMessages. */
export const DistrictTexts = {
  schoolsTitle: 'Schools',
  schoolsDescription: 'The schools of the district, with their classes.',
  schoolsLoadFailed: 'Failed to load schools',
  noSchools: 'No schools yet. Import the district’s roster to add them.',
  classesTitle: 'Classes',
  classesDescription: 'The classes of a school, with their teachers and students.',
  classesLoadFailed: 'Failed to load classes',
  noClasses: 'This school has no classes.',
  chooseSchool: 'Choose a school to see its classes.',
  myClassesTitle: 'My Classes',
  myClassesDescription: 'The classes you teach or are enrolled in.',
  noMyClasses: 'You are not in any class yet.',
  classLoadFailed: 'Failed to load the class',
  noTeachers: 'No teachers on this class.',
  noStudents: 'No students in this class.',
  importTitle: 'Roster Import',
  importDescription:
    'Upload the OneRoster 1.2 CSV zip your student information system exports. Rows with mistakes are skipped and listed; nothing is deleted.',
  importFailed: 'The import could not be started',
  importLoadFailed: 'Failed to load the import',
  historyLoadFailed: 'Failed to load the import history',
  noImports: 'No imports yet.',
  downloadErrors: 'Download errors (CSV)',
} as const;

/** How often an import in progress is asked for (its row is written per batch). */
export const IMPORT_POLL_MS = 1_000;

export const IMPORT_STATUS_LABELS = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
} as const;
