import { BadRequestException, HttpException, HttpStatus, NotFoundException } from '@nestjs/common';
import { RosterMessages } from '@district/contracts';
import { errorMappingInterceptor } from '@district/nest-common';

/** A roster file refused before anything is applied: not a zip, no manifest, a zip bomb, a missing column… */
export class RosterRefusedError extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

export class RosterImportNotFoundError extends Error {
  constructor() {
    super(RosterMessages.importNotFound);
  }
}

/** The roster routes' expected failures as HTTP answers: 413 over the size limit, 400 any other refusal. */
export function toRosterHttpException(error: unknown): unknown {
  if (error instanceof RosterRefusedError)
    return error.tooLarge
      ? new HttpException({ message: error.message }, HttpStatus.PAYLOAD_TOO_LARGE)
      : new BadRequestException(error.message);
  if (error instanceof RosterImportNotFoundError) return new NotFoundException(error.message);
  return error;
}

export const RosterErrorsInterceptor = errorMappingInterceptor(toRosterHttpException);
