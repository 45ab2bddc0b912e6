import { z } from 'zod';
import {
  AUDIO_FILE_NAME_MAX,
  AUDIO_FILE_URL_MAX,
  AUDIO_LIST_DESCRIPTION_MAX,
  AUDIO_LIST_FILES_MAX,
  AUDIO_LIST_TITLE_MAX,
  ClassroomMessages as M,
  INSTRUCTION_TYPES,
  LESSON_PLAN_DEFAULT_TOTAL_TIME,
  LESSON_PLAN_SHORT_MAX,
  LESSON_PLAN_TEXT_MAX,
  LESSON_PLAN_TITLE_MAX,
  SLIDE_CATEGORY_MAX,
  SLIDE_DEFAULT_IS_PUBLIC,
  SLIDE_DESCRIPTION_MAX,
  SLIDE_TAG_MAX,
  SLIDE_TAGS_MAX,
  SLIDE_TITLE_MAX,
  SLIDE_URL_MAX,
  type InstructionType,
} from './messages';
import { isGoogleSlidesUrl } from './slides-url';

const id = z.string().uuid();

/**
 * The school an item belongs to (issue #36, ADR 0042): its school's administrators may change it as its creator
 * and district administrators can. Null when it has none (an installation without schools, or a creator of
 * several schools who chose none). Served on every item.
 */
const itemSchoolSchema = id.nullable().optional();

/**
 * On create only (an update keeps the item's school): a school the creator teaches in or administers (any school
 * of the district for a district administrator); null for none; absent: the creator's school if they have exactly
 * one, else none.
 */
const schoolIdInput = z
  .string({ error: M.schoolIdInvalid })
  .uuid(M.schoolIdInvalid)
  .transform((v) => v.toLowerCase())
  .nullable()
  .optional();

/** An optional text field: trimmed, `null`/missing read as ''. */
function optionalText(max: number, tooLong: string, notText: string = tooLong) {
  return z
    .string({ error: notText })
    .trim()
    .max(max, tooLong)
    .nullable()
    .optional()
    .transform((v) => v ?? '');
}

// ───────────────────────────── Audio lists (`/api/audio-lists`) ─────────────────────────────

/**
 * Where an audio file may be: an absolute http(s) URL, or a path on this site (`/sounds/spanish/a.mp3` — one leading
 * slash, not `//host`). Nothing else (no `javascript:`, `data:`, `file:`), no spaces or control characters.
 */
export function isAudioFileUrl(value: string): boolean {
  if (value.length === 0 || value.length > AUDIO_FILE_URL_MAX) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f\\]/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** One file of a list (spec §3: name, url). */
export const audioFileSchema = z.object({ name: z.string(), url: z.string() });
export type AudioFile = z.infer<typeof audioFileSchema>;

/** An audio list as served (spec §3), with `canEdit`: whether the caller may edit and delete it (server's decision). */
export const audioListSchema = z.object({
  id,
  title: z.string(),
  description: z.string(),
  audioFiles: z.array(audioFileSchema),
  creatorId: id.nullable(),
  schoolId: itemSchoolSchema,
  creatorName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  canEdit: z.boolean(),
});
export type AudioList = z.infer<typeof audioListSchema>;
export const audioListListSchema = z.array(audioListSchema);

const audioFilesSchema = z
  .array(z.unknown(), { error: M.audioListRequired })
  .min(1, M.audioListRequired)
  .max(AUDIO_LIST_FILES_MAX, M.tooManyAudioFiles)
  .superRefine((files, ctx) => {
    files.forEach((raw, i) => {
      const n = i + 1;
      const f = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
      const name = typeof f.name === 'string' ? f.name.trim() : '';
      if (name === '')
        ctx.addIssue({ code: 'custom', message: M.audioFileNameRequired(n), path: [i, 'name'] });
      else if (name.length > AUDIO_FILE_NAME_MAX)
        ctx.addIssue({ code: 'custom', message: M.audioFileNameTooLong(n), path: [i, 'name'] });
      const url = typeof f.url === 'string' ? f.url.trim() : '';
      if (!isAudioFileUrl(url))
        ctx.addIssue({ code: 'custom', message: M.audioFileUrlInvalid(n), path: [i, 'url'] });
    });
  })
  .transform((files) =>
    files.map((raw) => {
      const f = raw as { name: string; url: string };
      return { name: f.name.trim(), url: f.url.trim() } satisfies AudioFile;
    }),
  );

/** POST and PUT of an audio list (spec §7: title, description, audioFiles): the whole list each time. */
export const audioListInputSchema = z.object(
  {
    title: z
      .string({ error: M.audioListRequired })
      .trim()
      .min(1, M.audioListRequired)
      .max(AUDIO_LIST_TITLE_MAX, M.audioListTitleTooLong),
    description: optionalText(AUDIO_LIST_DESCRIPTION_MAX, M.audioListDescriptionTooLong),
    audioFiles: audioFilesSchema,
    schoolId: schoolIdInput,
  },
  { error: M.bodyNotObject },
);
export type AudioListInput = z.output<typeof audioListInputSchema>;

// ───────────────────────────── Lesson plans (`/api/lesson-plans`) ─────────────────────────────

/** Engage, Explore, Explain, Elaborate (spec §3): time allotted, teacher will, students will, instruction types. */
export const lessonPlanPhaseSchema = z.object({
  timeAllotted: z.string(),
  teacherWill: z.string(),
  studentsWill: z.string(),
  instructionTypes: z.array(z.enum(INSTRUCTION_TYPES)),
});
export type LessonPlanPhase = z.infer<typeof lessonPlanPhaseSchema>;
/** Evaluate (spec §3): the same without instruction types. */
export const lessonPlanEvaluatePhaseSchema = lessonPlanPhaseSchema.omit({ instructionTypes: true });
export type LessonPlanEvaluatePhase = z.infer<typeof lessonPlanEvaluatePhaseSchema>;

/** A lesson plan as served (spec §3), with `creatorId`, `updatedAt` and `canEdit` (the caller may edit and delete it). */
export const lessonPlanSchema = z.object({
  id,
  title: z.string(),
  teacher: z.string(),
  date: z.string(),
  subject: z.string(),
  topic: z.string(),
  standards: z.string(),
  iCanStatements: z.string(),
  academicVocabulary: z.string(),
  dokQuestions: z.string(),
  warmUp: lessonPlanPhaseSchema,
  explore: lessonPlanPhaseSchema,
  explain: lessonPlanPhaseSchema,
  elaborate: lessonPlanPhaseSchema,
  evaluate: lessonPlanEvaluatePhaseSchema,
  totalTime: z.string(),
  evaluation: z.string(),
  reflection: z.string(),
  creatorId: id.nullable(),
  schoolId: itemSchoolSchema,
  creatorName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  canEdit: z.boolean(),
});
export type LessonPlan = z.infer<typeof lessonPlanSchema>;
export const lessonPlanListSchema = z.array(lessonPlanSchema);

const shortText = (field: string) =>
  optionalText(
    LESSON_PLAN_SHORT_MAX,
    M.lessonPlanFieldTooLong(field, LESSON_PLAN_SHORT_MAX),
    M.lessonPlanFieldNotText(field),
  );
const longText = (field: string) =>
  optionalText(
    LESSON_PLAN_TEXT_MAX,
    M.lessonPlanFieldTooLong(field, LESSON_PLAN_TEXT_MAX),
    M.lessonPlanFieldNotText(field),
  );

function validDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

function phaseInput(name: string) {
  return z
    .object(
      {
        timeAllotted: shortText(`${name}: time allotted`),
        teacherWill: longText(`${name}: teacher will`),
        studentsWill: longText(`${name}: students will`),
        instructionTypes: z
          .array(z.enum(INSTRUCTION_TYPES, { error: M.instructionTypeInvalid(name) }), {
            error: M.instructionTypeInvalid(name),
          })
          .max(INSTRUCTION_TYPES.length * 2, M.instructionTypeInvalid(name))
          .nullable()
          .optional()
          // Once each, in the checklist's order.
          .transform(
            (types) => INSTRUCTION_TYPES.filter((t) => (types ?? []).includes(t)) as InstructionType[],
          ),
      },
      { error: M.lessonPlanFieldNotText(name) },
    )
    .nullable()
    .optional()
    .transform((p) => p ?? { timeAllotted: '', teacherWill: '', studentsWill: '', instructionTypes: [] });
}

function evaluatePhaseInput(name: string) {
  return z
    .object(
      {
        timeAllotted: shortText(`${name}: time allotted`),
        teacherWill: longText(`${name}: teacher will`),
        studentsWill: longText(`${name}: students will`),
      },
      { error: M.lessonPlanFieldNotText(name) },
    )
    .nullable()
    .optional()
    .transform((p) => p ?? { timeAllotted: '', teacherWill: '', studentsWill: '' });
}

/**
 * POST and PUT of a lesson plan (spec §7: the plan fields): the whole plan each time. Title required (spec §5);
 * every text has a length limit; `date` is '' or a calendar date; a blank `totalTime` is '90 mins'.
 */
export const lessonPlanInputSchema = z.object(
  {
    title: z
      .string({ error: M.lessonPlanTitleRequired })
      .trim()
      .min(1, M.lessonPlanTitleRequired)
      .max(LESSON_PLAN_TITLE_MAX, M.lessonPlanTitleTooLong),
    teacher: shortText('Teacher'),
    date: shortText('Date').refine((v) => v === '' || validDate(v), M.lessonPlanDateInvalid),
    subject: shortText('Subject'),
    topic: shortText('Topic/Unit'),
    standards: longText('Standards'),
    iCanStatements: longText('I Can statements'),
    academicVocabulary: longText('Academic vocabulary'),
    dokQuestions: longText('Higher-order/DOK questions'),
    warmUp: phaseInput('Warm-Up/Hook (Engage)'),
    explore: phaseInput('Explore - Activating Strategy'),
    explain: phaseInput('Explain - Lecture/Builder'),
    elaborate: phaseInput('Elaborate - Instructional Activities'),
    evaluate: evaluatePhaseInput('Evaluate - Closing/Wrap-Up'),
    totalTime: shortText('Total time').transform((v) => (v === '' ? LESSON_PLAN_DEFAULT_TOTAL_TIME : v)),
    evaluation: longText('Evaluation'),
    reflection: longText('Reflection'),
    schoolId: schoolIdInput,
  },
  { error: M.bodyNotObject },
);
export type LessonPlanInput = z.output<typeof lessonPlanInputSchema>;

// ───────────────────────────── Google Slides (`/api/google-slides`) ─────────────────────────────

/** A slide as served (spec §3): `embedUrl` is always the server's derivation ('' = no preview); `canEdit` as above. */
export const googleSlideSchema = z.object({
  id,
  title: z.string(),
  description: z.string(),
  googleSlidesUrl: z.string(),
  embedUrl: z.string(),
  isPublic: z.boolean(),
  category: z.string(),
  tags: z.array(z.string()),
  creatorId: id.nullable(),
  schoolId: itemSchoolSchema,
  creatorName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  canEdit: z.boolean(),
});
export type GoogleSlide = z.infer<typeof googleSlideSchema>;
export const googleSlideListSchema = z.array(googleSlideSchema);

/** Tags as typed ('a, b,c') or as a list (spec §7): every entry split on commas, trimmed, blanks and repeats dropped. */
export function splitTags(raw: string | readonly string[]): string[] {
  const parts = (typeof raw === 'string' ? [raw] : raw).flatMap((t) => t.split(','));
  const out: string[] = [];
  for (const part of parts) {
    const tag = part.trim();
    if (tag !== '' && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/**
 * POST and PUT of a slide (spec §7). `embedUrl` is accepted for the spec's client and ignored: the server derives it
 * from `googleSlidesUrl`. `isPublic` defaults to true.
 */
export const googleSlideInputSchema = z.object(
  {
    title: z
      .string({ error: M.slideTitleRequired })
      .trim()
      .min(1, M.slideTitleRequired)
      .max(SLIDE_TITLE_MAX, M.slideTitleTooLong),
    description: optionalText(SLIDE_DESCRIPTION_MAX, M.slideDescriptionTooLong),
    googleSlidesUrl: z
      .string({ error: M.slideUrlRequired })
      .trim()
      .min(1, M.slideUrlRequired)
      .max(SLIDE_URL_MAX, M.invalidSlidesUrl)
      .refine(isGoogleSlidesUrl, M.invalidSlidesUrl),
    embedUrl: z
      .unknown()
      .optional()
      .transform(() => undefined),
    isPublic: z
      .boolean({ error: M.slideIsPublicInvalid })
      .nullable()
      .optional()
      .transform((v) => v ?? SLIDE_DEFAULT_IS_PUBLIC),
    category: optionalText(SLIDE_CATEGORY_MAX, M.slideCategoryTooLong),
    tags: z
      .union([z.string(), z.array(z.string())], { error: M.slideTagsInvalid })
      .nullable()
      .optional()
      .transform((v) => splitTags(v ?? []))
      .refine(
        (tags) => tags.length <= SLIDE_TAGS_MAX && tags.every((t) => t.length <= SLIDE_TAG_MAX),
        M.slideTagsInvalid,
      ),
    schoolId: schoolIdInput,
  },
  { error: M.bodyNotObject },
);
export type GoogleSlideInput = Omit<z.output<typeof googleSlideInputSchema>, 'embedUrl'>;
