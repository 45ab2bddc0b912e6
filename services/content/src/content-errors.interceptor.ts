import {
  BadRequestException,
  ConflictException,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { errorMappingInterceptor } from '@district/nest-common';
import {
  ImageTooLargeError,
  InvalidInputError,
  NotAnImageError,
  NotFoundError,
  SignInRequiredError,
  SlugTakenError,
} from './content.errors';

/** The one place content's expected failures become HTTP answers (the platform's filter writes the JSON). */
export function toHttpException(error: unknown): unknown {
  if (error instanceof NotFoundError) return new NotFoundException(error.message);
  if (error instanceof SlugTakenError) return new ConflictException(error.message);
  // An oversize image is a 400 like the spec's other upload refusal, so the client shows the message it words.
  if (
    error instanceof InvalidInputError ||
    error instanceof NotAnImageError ||
    error instanceof ImageTooLargeError
  )
    return new BadRequestException(error.message);
  if (error instanceof SignInRequiredError) return new UnauthorizedException(error.message);
  return error;
}

export const ContentErrorsInterceptor = errorMappingInterceptor(toHttpException);
