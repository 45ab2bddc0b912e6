import type { AuthUser } from '../auth/decorators';
import {
  RosterProjectionRepository,
  scopeFilter,
  type RosterScopeSet,
  type ScopeFilter,
} from './roster-projection.repository';

/** Who is asking: the signed-in user as the guard verified them (the id, approval and admin flag it carries). */
export type RosterViewer = Pick<AuthUser, 'id' | 'approved' | 'isAdmin'>;

const NOTHING: RosterScopeSet = { all: false, classIds: [], schoolIds: [] };
const EVERYONE: RosterScopeSet = { all: true, classIds: [], schoolIds: [] };

/**
 * The rights the roster gives (ADR 0042), decided from this service's projection, never from the client or a call to
 * identity: a district administrator acts on everyone; a teacher on the students of the classes they teach; a school
 * administrator on the students of their schools. An installation without classes keeps the spec's one-school rights
 * (everyone); an unapproved account holds none.
 */
export class RosterScope {
  constructor(private readonly projection: RosterProjectionRepository) {}

  /** The people the viewer acts on. */
  async scopeOf(viewer: RosterViewer): Promise<RosterScopeSet> {
    if (!viewer.approved) return NOTHING;
    if (viewer.isAdmin) return EVERYONE;
    if (!(await this.projection.hasClasses())) return EVERYONE;
    const { classIds, schoolIds } = await this.projection.taughtAndAdministered(viewer.id.toLowerCase());
    return { all: false, classIds, schoolIds };
  }

  /** Whether the viewer acts on this student. */
  async sees(viewer: RosterViewer, studentId: string): Promise<boolean> {
    const scope = await this.scopeOf(viewer);
    if (scope.all) return true;
    return this.projection.studentIn(studentId.toLowerCase(), scope);
  }

  /**
   * Whether the viewer manages the class: teaches it, administers its school, or is a district administrator.
   * An unknown or ended class is no one's but a district administrator's.
   */
  async managesClass(viewer: RosterViewer, classId: string): Promise<boolean> {
    if (!viewer.approved) return false;
    if (viewer.isAdmin) return true;
    const id = classId.toLowerCase();
    const school = await this.projection.schoolOf(id);
    if (school === undefined) return false;
    const { classIds, schoolIds } = await this.projection.taughtAndAdministered(viewer.id.toLowerCase());
    return classIds.includes(id) || schoolIds.includes(school);
  }

  /** The active classes a person is in (as teacher, as student, or both when `role` is absent). */
  classIdsOf(userId: string, role?: 'teacher' | 'student'): Promise<string[]> {
    return this.projection.classIdsOf(userId.toLowerCase(), role);
  }

  /** The active members of a class. */
  membersOf(classId: string, role?: 'teacher' | 'student'): Promise<string[]> {
    return this.projection.membersOf(classId.toLowerCase(), role);
  }

  /** Whether the student is in one of these classes (a quiz assigned to them). */
  inAnyClass(studentId: string, classIds: readonly string[]): Promise<boolean> {
    return this.projection.studentInClasses(
      studentId.toLowerCase(),
      classIds.map((c) => c.toLowerCase()),
    );
  }

  /** The SIS ids of a class and of its students (the OneRoster gradebook export). */
  sourcedIdsOf(classId: string): ReturnType<RosterProjectionRepository['sourcedIdsOf']> {
    return this.projection.sourcedIdsOf(classId.toLowerCase());
  }

  /** The class's school while it is active. */
  schoolOf(classId: string): Promise<string | undefined> {
    return this.projection.schoolOf(classId.toLowerCase());
  }

  /** `scopeFilter` for a repository: "the person in `column` is a student in the scope". */
  filter(scope: RosterScopeSet, column: string, firstParam: number): ScopeFilter {
    return scopeFilter(scope, column, firstParam);
  }
}
