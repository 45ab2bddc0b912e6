import {
  LESSON_PLAN_DEFAULT_TOTAL_TIME,
  type InstructionType,
  type LessonPlan,
  type LessonPlanEvaluatePhase,
  type LessonPlanInput,
  type LessonPlanPhase,
} from '@district/contracts/classroom';

/** What the form edits and sends: every field of the plan (spec §3), the whole plan each time. */
export type LessonPlanDraft = LessonPlanInput;
export type PhaseKey = 'warmUp' | 'explore' | 'explain' | 'elaborate' | 'evaluate';
export type TextKey = 'standards' | 'iCanStatements' | 'academicVocabulary' | 'dokQuestions';

/** The form's labels for the plan's own texts, in the spec's order (§2 "Form sections"). */
export const PLAN_TEXT_FIELDS: readonly { key: TextKey; label: string }[] = [
  { key: 'standards', label: 'Standards' },
  { key: 'iCanStatements', label: 'I Can Statements' },
  { key: 'academicVocabulary', label: 'Academic Vocabulary' },
  { key: 'dokQuestions', label: 'Higher-Order/DOK Questions' },
];

/** Spec §2: "Text areas are 3 or 4 rows" — the plan's own texts 3, each phase's Teacher Will / Students Will 4. */
export const TEXT_ROWS = 3;
export const PHASE_TEXT_ROWS = 4;

const emptyPhase = (): LessonPlanPhase => ({
  timeAllotted: '',
  teacherWill: '',
  studentsWill: '',
  instructionTypes: [],
});
const emptyEvaluate = (): LessonPlanEvaluatePhase => ({
  timeAllotted: '',
  teacherWill: '',
  studentsWill: '',
});

/** A new plan: everything empty but the total time ('90 mins', spec §3) and the teacher (the signed-in user's name). */
export function emptyDraft(teacher = ''): LessonPlanDraft {
  return {
    title: '',
    teacher,
    date: '',
    subject: '',
    topic: '',
    standards: '',
    iCanStatements: '',
    academicVocabulary: '',
    dokQuestions: '',
    warmUp: emptyPhase(),
    explore: emptyPhase(),
    explain: emptyPhase(),
    elaborate: emptyPhase(),
    evaluate: emptyEvaluate(),
    totalTime: LESSON_PLAN_DEFAULT_TOTAL_TIME,
    evaluation: '',
    reflection: '',
  };
}

const phaseOf = (p: LessonPlanPhase): LessonPlanPhase => ({
  ...p,
  instructionTypes: [...p.instructionTypes],
});

/** The form's copy of a stored plan (Edit prefills from the item, spec §4). */
export function draftFromPlan(plan: LessonPlan): LessonPlanDraft {
  return {
    title: plan.title,
    teacher: plan.teacher,
    date: plan.date,
    subject: plan.subject,
    topic: plan.topic,
    standards: plan.standards,
    iCanStatements: plan.iCanStatements,
    academicVocabulary: plan.academicVocabulary,
    dokQuestions: plan.dokQuestions,
    warmUp: phaseOf(plan.warmUp),
    explore: phaseOf(plan.explore),
    explain: phaseOf(plan.explain),
    elaborate: phaseOf(plan.elaborate),
    evaluate: { ...plan.evaluate },
    totalTime: plan.totalTime,
    evaluation: plan.evaluation,
    reflection: plan.reflection,
  };
}

/** Duplicate: the same plan as a new one, titled 'Copy of …', for the teacher to adjust and create. */
export function duplicateDraft(plan: LessonPlan, copyTitle: (title: string) => string): LessonPlanDraft {
  return { ...draftFromPlan(plan), title: copyTitle(plan.title) };
}

/** Ticks or unticks one instruction type, keeping the checklist's order. */
export function toggleInstructionType(
  list: readonly InstructionType[],
  type: InstructionType,
  order: readonly InstructionType[],
): InstructionType[] {
  const on = list.includes(type);
  return order.filter((t) => (t === type ? !on : list.includes(t)));
}
