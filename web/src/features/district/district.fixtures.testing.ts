import type { ClassDetail, ClassSummary, RosterImport, School } from '@district/contracts/identity';

let seq = 0;
const nextId = (block: string) => {
  seq += 1;
  return `00000000-0000-4000-8000-${block}${String(seq).padStart(12 - block.length, '0')}`;
};

export function makeSchool(overrides: Partial<School> = {}): School {
  return {
    id: nextId('5c'),
    name: 'Lincoln Elementary',
    identifier: 'LIN',
    active: true,
    classCount: 2,
    canManage: true,
    ...overrides,
  };
}

export function makeClass(overrides: Partial<ClassSummary> = {}): ClassSummary {
  return {
    id: nextId('c1'),
    title: 'Spanish 1 - Period 2',
    schoolId: '00000000-0000-4000-8000-5c0000000001',
    schoolName: 'Lincoln Elementary',
    term: 'Fall 2026',
    courseCode: 'SPA1',
    active: true,
    teacherCount: 1,
    studentCount: 24,
    ...overrides,
  };
}

export function makeClassDetail(overrides: Partial<ClassDetail> = {}): ClassDetail {
  return {
    ...makeClass(),
    teachers: [{ id: nextId('7e'), name: 'Tia Teacher', email: 'tia@district.test' }],
    students: [
      { id: nextId('57'), name: 'Sam Student', email: 'sam@district.test' },
      { id: nextId('57'), name: 'Ana Alumna', email: 'ana@district.test' },
    ],
    ...overrides,
  };
}

export function makeImport(overrides: Partial<RosterImport> = {}): RosterImport {
  return {
    id: nextId('1a'),
    status: 'queued',
    fileName: 'roster.zip',
    createdAt: '2026-12-07T10:00:00.000Z',
    finishedAt: null,
    total: 0,
    processed: 0,
    created: 0,
    updated: 0,
    deactivated: 0,
    errorCount: 0,
    failure: null,
    errors: [],
    ...overrides,
  };
}
