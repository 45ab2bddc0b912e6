/**
 * The OneRoster 1.2 CSV binding's files and their columns, in the binding's order (1EdTech OneRoster 1.2 CSV
 * tables). A reader matches columns by header name; a writer that wants its files read by any SIS tool writes them
 * exactly so.
 */
export const ONEROSTER_HEADERS = {
  'orgs.csv': ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'],
  'academicSessions.csv': [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'type',
    'startDate',
    'endDate',
    'parentSourcedId',
    'schoolYear',
  ],
  'courses.csv': [
    'sourcedId',
    'status',
    'dateLastModified',
    'schoolYearSourcedId',
    'title',
    'courseCode',
    'grades',
    'orgSourcedId',
    'subjects',
    'subjectCodes',
  ],
  'classes.csv': [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'grades',
    'courseSourcedId',
    'classCode',
    'classType',
    'location',
    'schoolSourcedId',
    'termSourcedIds',
    'subjects',
    'subjectCodes',
    'periods',
  ],
  'users.csv': [
    'sourcedId',
    'status',
    'dateLastModified',
    'enabledUser',
    'username',
    'userIds',
    'givenName',
    'familyName',
    'middleName',
    'identifier',
    'email',
    'sms',
    'phone',
    'agentSourcedIds',
    'grades',
    'password',
    'userMasterIdentifier',
    'resourceSourcedIds',
    'preferredGivenName',
    'preferredMiddleName',
    'preferredFamilyName',
    'primaryOrgSourcedId',
    'pronouns',
  ],
  'roles.csv': [
    'sourcedId',
    'status',
    'dateLastModified',
    'userSourcedId',
    'roleType',
    'role',
    'beginDate',
    'endDate',
    'orgSourcedId',
    'userProfileSourcedId',
  ],
  'enrollments.csv': [
    'sourcedId',
    'status',
    'dateLastModified',
    'classSourcedId',
    'schoolSourcedId',
    'userSourcedId',
    'role',
    'primary',
    'beginDate',
    'endDate',
  ],
} as const;

export type OneRosterDataFile = keyof typeof ONEROSTER_HEADERS;
export type OneRosterRow<F extends OneRosterDataFile> = Partial<
  Record<(typeof ONEROSTER_HEADERS)[F][number], string>
>;

/** manifest.csv's two columns. */
export const MANIFEST_HEADER = ['propertyName', 'value'] as const;

/** The data files the generator writes, in the order an import applies them (ONEROSTER_FILES in contracts). */
export const GENERATED_FILES: readonly OneRosterDataFile[] = [
  'orgs.csv',
  'academicSessions.csv',
  'courses.csv',
  'classes.csv',
  'users.csv',
  'roles.csv',
  'enrollments.csv',
];
