import { Inject, Injectable } from '@nestjs/common';
import { RosterScope, type AuthUser } from '@district/nest-common';
import { SchoolNotAllowedError } from '../classroom.errors';
import { isStaff } from './rights';
import { SchoolsRepository } from './schools.repository';

/**
 * Items and schools (issue #36, ADR 0042), decided from classroom's roster projection, never from the client: an
 * item is filed under its creator's school, and that school's administrators may change it. An installation
 * without classes keeps the spec's rights: no item gets a school there and nobody gains rights by one.
 */
@Injectable()
export class SchoolRights {
  constructor(
    @Inject(RosterScope) private readonly roster: RosterScope,
    @Inject(SchoolsRepository) private readonly schools: SchoolsRepository,
  ) {}

  /** The schools whose items the caller may change as their administrator (none but for approved staff). */
  async administeredBy(user: AuthUser): Promise<string[]> {
    // A district administrator changes every item already.
    if (!isStaff(user) || user.isAdmin) return [];
    const scope = await this.roster.scopeOf(user);
    return scope.all ? [] : scope.schoolIds;
  }

  /**
   * The school a new item gets: `requested` when it is a school the creator teaches in or administers (any school
   * of the district for a district administrator), none for null, and when absent the creator's school if they
   * have exactly one.
   */
  async schoolForNew(user: AuthUser, requested: string | null | undefined): Promise<string | null> {
    if (requested === null) return null;
    const scope = await this.roster.scopeOf(user);
    // `all` for anyone but a district administrator is an installation without classes: no schools.
    const own = scope.all && !user.isAdmin ? [] : await this.schools.schoolsOf(user.id.toLowerCase());
    if (requested === undefined) return own.length === 1 ? own[0] : null;
    if (own.includes(requested)) return requested;
    if (user.isAdmin && (await this.schools.exists(requested))) return requested;
    throw new SchoolNotAllowedError();
  }
}
