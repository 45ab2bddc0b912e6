import { ForbiddenException, NotFoundException } from '@nestjs/common';
import { IdentityMessages, RosterMessages } from '@district/contracts';
import { errorMappingInterceptor } from '@district/nest-common';

/** Expected failures of the district's reads; mapped to HTTP once, below. */
export abstract class DistrictError extends Error {}

/** No such class, or one the caller may not see: the same answer, so a class's existence is not revealed. */
export class ClassNotFoundError extends DistrictError {
  constructor() {
    super(RosterMessages.classNotFound);
  }
}

export class SchoolNotFoundError extends DistrictError {
  constructor() {
    super(RosterMessages.schoolNotFound);
  }
}

/** `?schoolId=` of a school the caller does not administer. */
export class NotSchoolAdministratorError extends DistrictError {
  constructor() {
    super(IdentityMessages.adminRequired);
  }
}

export function toHttpException(error: unknown): unknown {
  if (error instanceof ClassNotFoundError || error instanceof SchoolNotFoundError)
    return new NotFoundException(error.message);
  if (error instanceof NotSchoolAdministratorError) return new ForbiddenException(error.message);
  return error;
}

export const DistrictErrorsInterceptor = errorMappingInterceptor(toHttpException);
