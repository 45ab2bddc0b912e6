import { Inject, Injectable } from '@nestjs/common';
import type { ClassDetail, ClassMember, ClassSummary, School } from '@district/contracts';
import type { AuthUser } from '@district/nest-common';
import { ClassNotFoundError, NotSchoolAdministratorError, SchoolNotFoundError } from './district.errors';
import { DistrictRepository, type ClassKey, type Viewer } from './district.repository';

export interface ClassPage {
  classes: ClassSummary[];
  total: number;
  next: ClassKey | null;
}

/**
 * Who sees which schools and classes (ADR 0042, architecture §3a), decided from the stored roster rows: a
 * district administrator (isAdmin) everything, a school administrator their school's, a teacher or student their
 * own classes. Ids arrive canonical (lower-case) from the controllers.
 */
@Injectable()
export class DistrictService {
  constructor(@Inject(DistrictRepository) private readonly roster: DistrictRepository) {}

  schools(actor: AuthUser): Promise<School[]> {
    return this.roster.schoolsFor(viewerOf(actor));
  }

  /**
   * The caller's own classes, or with `schoolId` that school's (district administrators: any school, an unknown
   * one is 404; school administrators: their own, another is 403; anyone else 403).
   */
  async classes(
    actor: AuthUser,
    query: { schoolId?: string; after?: ClassKey; limit: number },
  ): Promise<ClassPage> {
    if (!query.schoolId)
      return this.roster.classPage({ kind: 'own', userId: actor.id }, query.after, query.limit);
    if (actor.isAdmin) {
      if (!(await this.roster.schoolExists(query.schoolId))) throw new SchoolNotFoundError();
    } else if (!(await this.roster.administers(actor.id, query.schoolId))) {
      throw new NotSchoolAdministratorError();
    }
    return this.roster.classPage({ kind: 'school', schoolId: query.schoolId }, query.after, query.limit);
  }

  /**
   * A class with its active teachers and students, for its members, its school's administrators and district
   * administrators; anyone else is told it does not exist. Emails only for its teachers and administrators.
   */
  async classDetail(actor: AuthUser, classId: string): Promise<ClassDetail> {
    const found = await this.roster.classById(classId);
    if (!found) throw new ClassNotFoundError();
    const access = await this.roster.accessTo(classId, actor.id);
    if (!actor.isAdmin && !access.enrolled && !access.administers) throw new ClassNotFoundError();
    const withEmail = actor.isAdmin || access.administers || access.teaches;
    const members = await this.roster.members(classId);
    const member = (row: (typeof members)[number]): ClassMember =>
      withEmail ? { id: row.id, name: row.name, email: row.email } : { id: row.id, name: row.name };
    return {
      ...found,
      teachers: members.filter((m) => m.role === 'teacher').map(member),
      students: members.filter((m) => m.role === 'student').map(member),
    };
  }
}

function viewerOf(actor: AuthUser): Viewer {
  return { id: actor.id.toLowerCase(), isAdmin: actor.isAdmin };
}
