/**
 * Where the district's screens live. A district administrator's are under /admin (the 'admin' guard); a school
 * administrator's are the same screens at /schools (signed in and approved: the server limits what they list).
 */
export type DistrictArea = 'admin' | 'school';

export const schoolsPath = (area: DistrictArea) => (area === 'admin' ? '/admin/schools' : '/schools');
export const classesPath = (area: DistrictArea, schoolId?: string) =>
  `${area === 'admin' ? '/admin/classes' : '/schools/classes'}${
    schoolId ? `?schoolId=${encodeURIComponent(schoolId)}` : ''
  }`;
export const classPath = (id: string) => `/classes/${encodeURIComponent(id)}`;
export const gradesPathFor = (kind: 'audio' | 'text', classId: string) =>
  `${kind === 'audio' ? '/admin/quiz-grades-dashboard' : '/admin/text-quiz-grades-dashboard'}?classId=${encodeURIComponent(classId)}`;
