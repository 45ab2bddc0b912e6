import { Inject, Injectable } from '@nestjs/common';
import type { UserExportSections } from '@district/contracts';
import {
  PLATFORM_LOGGER,
  type Logger,
  type PeopleDataDeclaration,
  type PeopleDataHolder,
} from '@district/nest-common';
import type { EntityManager } from 'typeorm';
import { GradesRepository } from '../grades/grades.repository';
import { QuizzesRepository } from '../quizzes/quizzes.repository';
import { QuizzesService } from '../quizzes/quizzes.service';
import { PeopleDataRepository } from './people-data.repository';

/**
 * What assessment keeps about a person (ADRs 0019, 0021, 0033, 0036): their results with the answers given, the
 * accommodations granted to them, and the quizzes they created.
 * - export: all three;
 * - a deleted person: their results and accommodations are removed (privacy); the quizzes they wrote stay,
 *   ownerless ('Former staff member'): administrators only (ADR 0033).
 */
@Injectable()
export class AssessmentPeopleData implements PeopleDataHolder {
  constructor(
    @Inject(GradesRepository) private readonly grades: GradesRepository,
    @Inject(QuizzesRepository) private readonly quizzes: QuizzesRepository,
    @Inject(QuizzesService) private readonly quizService: QuizzesService,
    @Inject(PeopleDataRepository) private readonly people: PeopleDataRepository,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async exportSections(userId: string): Promise<UserExportSections> {
    return {
      grades: await this.people.gradesOf(userId),
      accommodations: await this.people.accommodationsOf(userId),
      quizzesCreated: await this.people.quizzesCreatedBy(userId),
    };
  }

  async forget(tx: EntityManager, userId: string): Promise<void> {
    const removed = await this.grades.deleteAllOf(tx, userId);
    await this.quizzes.deleteAccommodationsOf(tx, userId);
    await this.quizService.disownAll(tx, userId);
    if (removed > 0) this.logger.info({ userId, grades: removed }, "deleted user's results removed");
  }
}

/** assessment in the registry (index.ts) and in its users module: grade and quiz changes are audited; it holds people's data. */
export const ASSESSMENT_PEOPLE_DATA: PeopleDataDeclaration = { audit: true, holder: AssessmentPeopleData };
