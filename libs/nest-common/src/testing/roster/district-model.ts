import {
  GIVEN_NAMES,
  FAMILY_NAMES,
  SCHOOL_KINDS,
  SCHOOL_PLACES,
  SUBJECTS,
  numberedUsername,
  usernameFor,
} from './names';
import { seededRandom, shuffledIndices } from './random';

/** A person the district must hold exactly as given (the demo's teacher and students), placed at the first school. */
export interface PinnedPerson {
  sourcedId: string;
  role: 'teacher' | 'student';
  givenName: string;
  familyName: string;
  username: string;
  email: string;
  /** The users.csv password column; empty when absent. */
  password?: string;
}

export interface DistrictShape {
  seed: number | string;
  schools: number;
  teachers: number;
  students: number;
  /** Classes each pupil takes, one per period (4). */
  classesPerStudent: number;
  /** Pupils per class at most (40). */
  classSize: number;
  /** Emails are `<username>@<domain>`. */
  domain: string;
  /** OneRoster's schoolYear: the calendar year the school year ends in. */
  schoolYear: number;
  pinned: readonly PinnedPerson[];
}

export type UserKind = 'administrator' | 'teacher' | 'student';

export interface ClassInfo {
  school: number;
  /** The class's number within its school. */
  index: number;
  period: number;
  section: number;
  subject: number;
  /** The teacher's number within the school's teachers. */
  teacher: number;
}

export interface EnrollmentInfo {
  /** 0-based position in enrollments.csv. */
  n: number;
  klass: ClassInfo;
  user: number;
  role: 'teacher' | 'student';
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The grades each SCHOOL_KINDS entry teaches (a school's kind is its number modulo the kinds). */
const GRADE_RANGES: ReadonlyArray<[number, number]> = [
  [9, 12],
  [6, 8],
  [1, 5],
  [6, 12],
];

/**
 * The district's structure, computed from its shape without writing any CSV: schools split the teachers and pupils
 * evenly; each school runs `classesPerStudent` periods of `ceil(pupils / classSize)` sections; every pupil takes one
 * section in each period (a seeded shuffle per school and period); a school's classes go round its teachers. Users are
 * numbered administrators (one per school), then teachers, then students; only a few bytes are kept per person.
 */
export class DistrictModel {
  readonly userCount: number;
  private readonly givenIndex: Uint16Array;
  private readonly familyIndex: Uint16Array;
  private readonly usernameNth: Uint16Array;
  private readonly gradeOf: Uint8Array;
  private readonly schoolPlace: Uint32Array;

  constructor(readonly shape: DistrictShape) {
    const { schools, teachers, students, pinned } = shape;
    if (!Number.isInteger(schools) || schools < 1)
      throw new Error('schools must be a whole number of at least 1');
    if (!Number.isInteger(teachers) || teachers < schools)
      throw new Error('teachers must be a whole number, at least one per school');
    if (!Number.isInteger(students) || students < 0) throw new Error('students must be a whole number');
    if (!Number.isInteger(shape.classesPerStudent) || shape.classesPerStudent < 1)
      throw new Error('classesPerStudent must be a whole number of at least 1');
    if (!Number.isInteger(shape.classSize) || shape.classSize < 1)
      throw new Error('classSize must be a whole number of at least 1');
    if (pinned.filter((p) => p.role === 'teacher').length > this.teachersAt(0))
      throw new Error('more pinned teachers than the first school has teachers');
    if (pinned.filter((p) => p.role === 'student').length > Math.min(this.studentsAt(0), shape.classSize))
      throw new Error('more pinned students than fit in the first school’s first class');

    this.userCount = schools + teachers + students;
    this.givenIndex = new Uint16Array(this.userCount);
    this.familyIndex = new Uint16Array(this.userCount);
    this.usernameNth = new Uint16Array(this.userCount);
    this.gradeOf = new Uint8Array(this.userCount);
    const random = seededRandom(shape.seed, 'people');
    const taken = new Map<string, number>(pinned.map((p) => [p.username, 1]));
    for (let u = 0; u < this.userCount; u++) {
      this.givenIndex[u] = random.int(GIVEN_NAMES.length);
      this.familyIndex[u] = random.int(FAMILY_NAMES.length);
      this.gradeOf[u] = random.int(240);
      if (this.pinnedOf(u)) continue;
      const base = usernameFor(GIVEN_NAMES[this.givenIndex[u]], FAMILY_NAMES[this.familyIndex[u]]);
      const nth = taken.get(base) ?? 0;
      taken.set(base, nth + 1);
      this.usernameNth[u] = nth;
    }
    this.schoolPlace = shuffledIndices(SCHOOL_PLACES.length, seededRandom(shape.seed, 'schools'));
  }

  // ── schools ───────────────────────────────────────────────────────────────────────────────────────────────────

  schoolSourcedId(school: number): string {
    return `org-school-${pad(school + 1, 3)}`;
  }

  /** Unique: a place is used once per round, and later rounds are numbered. */
  schoolName(school: number): string {
    const place = SCHOOL_PLACES[this.schoolPlace[school % SCHOOL_PLACES.length]];
    const round = Math.floor(school / SCHOOL_PLACES.length);
    return `${place} ${SCHOOL_KINDS[school % SCHOOL_KINDS.length]}${round > 0 ? ` ${round + 1}` : ''}`;
  }

  firstStudentAt(school: number): number {
    return Math.floor((school * this.shape.students) / this.shape.schools);
  }

  studentsAt(school: number): number {
    return this.firstStudentAt(school + 1) - this.firstStudentAt(school);
  }

  firstTeacherAt(school: number): number {
    return Math.floor((school * this.shape.teachers) / this.shape.schools);
  }

  teachersAt(school: number): number {
    return this.firstTeacherAt(school + 1) - this.firstTeacherAt(school);
  }

  sectionsAt(school: number): number {
    return Math.ceil(this.studentsAt(school) / this.shape.classSize);
  }

  classesAt(school: number): number {
    return this.sectionsAt(school) * this.shape.classesPerStudent;
  }

  /** The subjects a school teaches, as indices into SUBJECTS, in order. */
  subjectsAt(school: number): number[] {
    const used = new Set<number>();
    for (let c = 0; c < this.classesAt(school); c++) used.add(this.classAt(school, c).subject);
    return [...used].sort((a, b) => a - b);
  }

  courseSourcedId(school: number, subject: number): string {
    return `crs-${pad(school + 1, 3)}-${SUBJECTS[subject].code.toLowerCase()}`;
  }

  // ── classes ───────────────────────────────────────────────────────────────────────────────────────────────────

  classAt(school: number, index: number): ClassInfo {
    const sections = this.sectionsAt(school);
    const period = Math.floor(index / sections);
    const section = index % sections;
    const subject = (period + this.shape.classesPerStudent * (section % 2)) % SUBJECTS.length;
    return { school, index, period, section, subject, teacher: index % this.teachersAt(school) };
  }

  classSourcedId(klass: ClassInfo): string {
    return `cls-${pad(klass.school + 1, 3)}-${pad(klass.index + 1, 4)}`;
  }

  classTitle(klass: ClassInfo): string {
    return `${SUBJECTS[klass.subject].title} (period ${klass.period + 1}, section ${klass.section + 1})`;
  }

  /**
   * The school's pupils (numbers within the school) in the seeded order of `period`: section i takes the i-th slice.
   * The pinned pupils come first in the first school's first period, so they share its first class.
   */
  periodOrder(school: number, period: number): Uint32Array {
    const order = shuffledIndices(
      this.studentsAt(school),
      seededRandom(this.shape.seed, `sections:${school}:${period}`),
    );
    if (school === 0 && period === 0) {
      const pinned = this.shape.pinned.filter((p) => p.role === 'student').length;
      for (let p = 0; p < pinned; p++) {
        const at = order.indexOf(p);
        order[at] = order[p];
        order[p] = p;
      }
    }
    return order;
  }

  sectionBounds(school: number, section: number): [number, number] {
    const n = this.studentsAt(school);
    const sections = this.sectionsAt(school);
    return [Math.floor((section * n) / sections), Math.floor(((section + 1) * n) / sections)];
  }

  /** enrollments.csv in order: school by school, class by class, the teacher then the pupils. */
  *enrollments(): Generator<EnrollmentInfo> {
    let n = 0;
    for (let school = 0; school < this.shape.schools; school++) {
      const sections = this.sectionsAt(school);
      for (let period = 0; period < this.shape.classesPerStudent; period++) {
        const order = this.periodOrder(school, period);
        for (let section = 0; section < sections; section++) {
          const klass = this.classAt(school, period * sections + section);
          yield { n: n++, klass, user: this.teacherUser(school, klass.teacher), role: 'teacher' };
          const [from, to] = this.sectionBounds(school, section);
          for (let i = from; i < to; i++)
            yield { n: n++, klass, user: this.studentUser(school, order[i]), role: 'student' };
        }
      }
    }
  }

  enrollmentSourcedId(n: number): string {
    return `enr-${pad(n + 1, 7)}`;
  }

  // ── people ────────────────────────────────────────────────────────────────────────────────────────────────────

  teacherUser(school: number, local: number): number {
    return this.shape.schools + this.firstTeacherAt(school) + local;
  }

  studentUser(school: number, local: number): number {
    return this.shape.schools + this.shape.teachers + this.firstStudentAt(school) + local;
  }

  kindOf(user: number): UserKind {
    if (user < this.shape.schools) return 'administrator';
    return user < this.shape.schools + this.shape.teachers ? 'teacher' : 'student';
  }

  schoolOf(user: number): number {
    const { schools, teachers, students } = this.shape;
    if (user < schools) return user;
    const [i, total] =
      user < schools + teachers ? [user - schools, teachers] : [user - schools - teachers, students];
    // The last school whose slice starts at or before i (a slice starts at floor(s * total / schools)).
    return Math.ceil(((i + 1) * schools) / total) - 1;
  }

  /** The pinned person in this user's place: the first teachers and the first pupils of the first school. */
  pinnedOf(user: number): PinnedPerson | undefined {
    const kind = this.kindOf(user);
    if (kind === 'administrator') return undefined;
    const i = user - this.shape.schools - (kind === 'student' ? this.shape.teachers : 0);
    return this.shape.pinned.filter((p) => p.role === kind)[i];
  }

  userSourcedId(user: number): string {
    const pinned = this.pinnedOf(user);
    if (pinned) return pinned.sourcedId;
    const { schools, teachers } = this.shape;
    if (user < schools) return `usr-adm-${pad(user + 1, 4)}`;
    if (user < schools + teachers) return `usr-tch-${pad(user - schools + 1, 5)}`;
    return `usr-stu-${pad(user - schools - teachers + 1, 6)}`;
  }

  givenName(user: number): string {
    return this.pinnedOf(user)?.givenName ?? GIVEN_NAMES[this.givenIndex[user]];
  }

  familyName(user: number): string {
    return this.pinnedOf(user)?.familyName ?? FAMILY_NAMES[this.familyIndex[user]];
  }

  /** Another family name than the user's (a delta's rename). */
  otherFamilyName(user: number, shift: number): string {
    return FAMILY_NAMES[
      (this.familyIndex[user] + 1 + (shift % (FAMILY_NAMES.length - 1))) % FAMILY_NAMES.length
    ];
  }

  username(user: number): string {
    const pinned = this.pinnedOf(user);
    if (pinned) return pinned.username;
    const base = usernameFor(GIVEN_NAMES[this.givenIndex[user]], FAMILY_NAMES[this.familyIndex[user]]);
    return numberedUsername(base, this.usernameNth[user]);
  }

  email(user: number): string {
    return this.pinnedOf(user)?.email ?? `${this.username(user)}@${this.shape.domain}`;
  }

  /** A pupil's grade ("01" … "12", within their school's kind's range); staff have none. */
  grade(user: number): string {
    if (this.kindOf(user) !== 'student') return '';
    const [from, to] = GRADE_RANGES[this.schoolOf(user) % GRADE_RANGES.length];
    return pad(from + (this.gradeOf[user] % (to - from + 1)), 2);
  }

  /** A, T or S and the person's number among their kind. */
  identifier(user: number): string {
    const { schools, teachers } = this.shape;
    if (user < schools) return `A${pad(user + 1, 6)}`;
    if (user < schools + teachers) return `T${pad(user - schools + 1, 6)}`;
    return `S${pad(user - schools - teachers + 1, 6)}`;
  }

  // ── totals ────────────────────────────────────────────────────────────────────────────────────────────────────

  classCount(): number {
    let total = 0;
    for (let s = 0; s < this.shape.schools; s++) total += this.classesAt(s);
    return total;
  }

  courseCount(): number {
    let total = 0;
    for (let s = 0; s < this.shape.schools; s++) total += this.subjectsAt(s).length;
    return total;
  }

  enrollmentCount(): number {
    return this.classCount() + this.shape.students * this.shape.classesPerStudent;
  }
}
