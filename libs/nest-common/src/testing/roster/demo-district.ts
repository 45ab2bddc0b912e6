import { DEMO_ACCOUNTS, type DemoAccountKey } from '@district/contracts';
import type { PinnedPerson } from './district-model';
import type { DistrictOptions } from './generate-district';

/** The rostered demo accounts' sourcedIds: identity's seed stamps them on the seeded accounts before importing. */
export function demoSourcedId(key: DemoAccountKey): string {
  return `demo-${key}`;
}

/**
 * The demo district `npm start` imports (services/identity/src/seed/demo-district.zip): three schools, twelve
 * classes, 300 pupils. The demo teacher and students are pinned exactly as the seed creates them (no password: the
 * seed gives them theirs), the teacher teaching both students' first class; the administrator and the pending
 * account stay out of the roster. Stored, not deflated, so the checked-in bytes do not depend on the zlib.
 */
export function demoDistrictOptions(): DistrictOptions {
  const pinned: PinnedPerson[] = DEMO_ACCOUNTS.filter(
    (a) => a.approved && !a.isAdmin && (a.role === 'teacher' || a.role === 'student'),
  ).map((a) => {
    const [givenName, ...family] = a.name.split(' ');
    return {
      sourcedId: demoSourcedId(a.key),
      role: a.role === 'teacher' ? 'teacher' : 'student',
      givenName,
      familyName: family.join(' '),
      username: a.username,
      email: a.email,
    };
  });
  return {
    seed: 'demo',
    schools: 3,
    teachers: 6,
    students: 300,
    classesPerStudent: 2,
    classSize: 50,
    domain: 'demo.school',
    pinned,
    compress: false,
  };
}
