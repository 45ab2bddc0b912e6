import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { errorMappingInterceptor } from '@district/nest-common';
import { ItemNotFoundError, NotItemOwnerError, SchoolNotAllowedError } from './classroom.errors';

/** The one place classroom's expected failures become HTTP answers (the platform's filter writes the JSON). */
export function toHttpException(error: unknown): unknown {
  if (error instanceof ItemNotFoundError) return new NotFoundException(error.message);
  if (error instanceof NotItemOwnerError) return new ForbiddenException(error.message);
  if (error instanceof SchoolNotAllowedError) return new BadRequestException(error.message);
  return error;
}

export const ClassroomErrorsInterceptor = errorMappingInterceptor(toHttpException);
