import {
  BadRequestException,
  ForbiddenException,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { errorMappingInterceptor } from '@district/nest-common';
import {
  ChatroomNotFoundError,
  ClassNotFoundError,
  ClassRoomInvitesError,
  NotClassManagerError,
  UsersUnavailableError,
} from './chat.errors';

/** Seconds a client should wait before asking again for a list another service could not give. */
const RETRY_AFTER_SECONDS = 2;

/** The one place chat's expected failures become HTTP answers (the platform's filter writes the JSON). */
export function toHttpException(error: unknown): unknown {
  if (error instanceof ChatroomNotFoundError) return new NotFoundException(error.message);
  if (error instanceof NotClassManagerError) return new ForbiddenException(error.message);
  if (error instanceof ClassNotFoundError || error instanceof ClassRoomInvitesError)
    return new BadRequestException(error.message);
  if (error instanceof UsersUnavailableError)
    return new ServiceUnavailableException({ message: error.message, retryAfter: RETRY_AFTER_SECONDS });
  return error;
}

export const ChatErrorsInterceptor = errorMappingInterceptor(toHttpException);
