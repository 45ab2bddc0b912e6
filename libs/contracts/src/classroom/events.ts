import { z } from 'zod';

const id = z.string().uuid();
/**
 * The item's school (issue #36, ADR 0042); null in an installation without schools. Optional so that messages
 * published before items had a school still parse.
 */
const schoolId = id.nullable().optional();

/** classroom.audiolist.created.v1 / classroom.audiolist.updated.v1 — the list as it now is (no file URLs). */
export const audioListChangedEventSchema = z.object({
  audioList: z.object({
    id,
    title: z.string(),
    fileCount: z.number().int(),
    creatorId: id.nullable(),
    schoolId,
    updatedAt: z.string(),
  }),
});
export type AudioListChangedEvent = z.infer<typeof audioListChangedEventSchema>;

/** classroom.audiolist.deleted.v1 */
export const audioListDeletedEventSchema = z.object({ audioListId: id, schoolId });
export type AudioListDeletedEvent = z.infer<typeof audioListDeletedEventSchema>;

/** classroom.lessonplan.created.v1 / classroom.lessonplan.updated.v1 — the plan's heading (not its text). */
export const lessonPlanChangedEventSchema = z.object({
  lessonPlan: z.object({
    id,
    title: z.string(),
    subject: z.string(),
    creatorId: id.nullable(),
    schoolId,
    updatedAt: z.string(),
  }),
});
export type LessonPlanChangedEvent = z.infer<typeof lessonPlanChangedEventSchema>;

/** classroom.lessonplan.deleted.v1 */
export const lessonPlanDeletedEventSchema = z.object({ lessonPlanId: id, schoolId });
export type LessonPlanDeletedEvent = z.infer<typeof lessonPlanDeletedEventSchema>;

/** classroom.slide.created.v1 / classroom.slide.updated.v1 — the slide as it now is. */
export const googleSlideChangedEventSchema = z.object({
  slide: z.object({
    id,
    title: z.string(),
    isPublic: z.boolean(),
    embedUrl: z.string(),
    creatorId: id.nullable(),
    schoolId,
    updatedAt: z.string(),
  }),
});
export type GoogleSlideChangedEvent = z.infer<typeof googleSlideChangedEventSchema>;

/** classroom.slide.deleted.v1 */
export const googleSlideDeletedEventSchema = z.object({ slideId: id, schoolId });
export type GoogleSlideDeletedEvent = z.infer<typeof googleSlideDeletedEventSchema>;
