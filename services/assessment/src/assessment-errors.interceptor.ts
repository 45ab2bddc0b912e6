import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  NotFoundException,
} from '@nestjs/common';
import { AssessmentMessages } from '@district/contracts';
import { errorMappingInterceptor } from '@district/nest-common';
import {
  AnswersInvalidError,
  AttemptLimitError,
  ClassNotYoursError,
  GradeNotFoundError,
  GradeOwnerError,
  QuizChangingError,
  QuizNotFoundError,
  QuizOwnerError,
} from './assessment.errors';

/** The one place assessment's expected failures become HTTP answers (the platform's filter writes the JSON). */
export function toHttpException(error: unknown): unknown {
  if (error instanceof QuizNotFoundError || error instanceof GradeNotFoundError)
    return new NotFoundException(error.message);
  if (error instanceof QuizOwnerError || error instanceof GradeOwnerError)
    return new ForbiddenException(error.message);
  if (error instanceof AttemptLimitError)
    return new ConflictException({
      message: error.message,
      details: {
        title: AssessmentMessages.attemptLimitTitle,
        attemptsTaken: error.taken,
        maxAttempts: error.maxAttempts,
      },
    });
  if (error instanceof AnswersInvalidError || error instanceof ClassNotYoursError)
    return new BadRequestException(error.message);
  if (error instanceof QuizChangingError) return new ConflictException(error.message);
  return error;
}

export const AssessmentErrorsInterceptor = errorMappingInterceptor(toHttpException);
