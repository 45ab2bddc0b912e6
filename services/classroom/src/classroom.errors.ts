import { ClassroomMessages as M } from '@district/contracts';

/**
 * Expected failures of classroom's use cases. Services throw these; classroom-errors.interceptor.ts maps them to
 * HTTP, so the domain code never speaks HTTP.
 */
export abstract class ClassroomError extends Error {}

/** No such item (also any id that is not a UUID). */
export class ItemNotFoundError extends ClassroomError {}

export class AudioListNotFoundError extends ItemNotFoundError {
  constructor() {
    super(M.audioListNotFound);
  }
}

export class LessonPlanNotFoundError extends ItemNotFoundError {
  constructor() {
    super(M.lessonPlanNotFound);
  }
}

export class SlideNotFoundError extends ItemNotFoundError {
  constructor() {
    super(M.slideNotFound);
  }
}

/** The item exists but the caller may not change it (not its creator, not an admin). */
export class NotItemOwnerError extends ClassroomError {}

/** A new item's `schoolId` is not a school its creator teaches in or administers (issue #36). */
export class SchoolNotAllowedError extends ClassroomError {
  constructor() {
    super(M.schoolNotYours);
  }
}
