import { ContentMessages } from '@district/contracts';

/**
 * Expected failures of content's use cases. Services throw these; content-errors.interceptor.ts maps them
 * to HTTP, so the domain code never speaks HTTP.
 */
export abstract class ContentError extends Error {}

export class NotFoundError extends ContentError {}

export class PostNotFoundError extends NotFoundError {
  constructor() {
    super(ContentMessages.postNotFound);
  }
}

export class CategoryNotFoundError extends NotFoundError {
  constructor() {
    super(ContentMessages.categoryNotFound);
  }
}

export class CommentNotFoundError extends NotFoundError {
  constructor() {
    super(ContentMessages.commentNotFound);
  }
}

/** A slug another post or category already has. */
export class SlugTakenError extends ContentError {}

/** Input that passed the schema but breaks a rule needing the database (a reply to a reply, an empty comment). */
export class InvalidInputError extends ContentError {}

/** Signed out where the spec words its own sign-in message. */
export class SignInRequiredError extends ContentError {}

export class ImageTooLargeError extends ContentError {
  constructor() {
    super(ContentMessages.imageTooLarge);
  }
}

export class NotAnImageError extends ContentError {
  constructor() {
    super(ContentMessages.selectImageFile);
  }
}
