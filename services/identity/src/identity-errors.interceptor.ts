import {
  ConflictException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  NotFoundException,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import { errorMappingInterceptor } from '@district/nest-common';
import {
  AccountTakenError,
  ExportUnavailableError,
  InvalidCredentialsError,
  NotDemoAccountError,
  NotManagedUserError,
  SelfChangeError,
  TooManyAttemptsError,
  UserNotFoundError,
} from './identity.errors';

/** The one place identity's expected failures become HTTP answers (the platform's filter writes the JSON). */
export function toHttpException(error: unknown): unknown {
  if (error instanceof UserNotFoundError) return new NotFoundException(error.message);
  if (error instanceof ExportUnavailableError) return new ServiceUnavailableException(error.message);
  if (error instanceof AccountTakenError) return new ConflictException(error.message);
  if (
    error instanceof SelfChangeError ||
    error instanceof NotDemoAccountError ||
    error instanceof NotManagedUserError
  )
    return new ForbiddenException(error.message);
  if (error instanceof InvalidCredentialsError) return new UnauthorizedException(error.message);
  if (error instanceof TooManyAttemptsError) {
    return new HttpException(
      { message: error.message, retryAfter: error.retryAfterSeconds },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
  return error;
}

export const IdentityErrorsInterceptor = errorMappingInterceptor(toHttpException);
