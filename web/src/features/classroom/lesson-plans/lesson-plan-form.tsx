import { useState, type FormEvent } from 'react';
import {
  ClassroomMessages,
  INSTRUCTION_TYPES,
  LESSON_PLAN_PHASES,
  LESSON_PLAN_SHORT_MAX,
  LESSON_PLAN_TEXT_MAX,
  LESSON_PLAN_TIME_PLACEHOLDER,
  LESSON_PLAN_TITLE_MAX,
  lessonPlanInputSchema,
  type InstructionType,
  type LessonPlanEvaluatePhase,
  type LessonPlanPhase,
} from '@district/contracts/classroom';
import { Button, Card, CardBody, CardHeader, TextAreaField, TextField } from '@/components/ui';
import {
  PHASE_TEXT_ROWS,
  PLAN_TEXT_FIELDS,
  TEXT_ROWS,
  toggleInstructionType,
  type LessonPlanDraft,
  type PhaseKey,
} from './lesson-plan-model';

export interface LessonPlanFormProps {
  /** 'create' sends POST ('Create Plan'); 'edit' sends PUT ('Update Plan'). */
  mode: 'create' | 'edit';
  initial: LessonPlanDraft;
  saving: boolean;
  onSubmit: (draft: LessonPlanDraft) => void;
  onCancel: () => void;
  /** A problem found before sending (the title, a length limit): shown in the page's red banner. */
  onInvalid: (message: string) => void;
}

type AnyPhase = LessonPlanPhase | LessonPlanEvaluatePhase;

/** The full 5E form (spec §2): the plan's texts, five phases, total time, evaluation and reflection. */
export function LessonPlanForm({
  mode,
  initial,
  saving,
  onSubmit,
  onCancel,
  onInvalid,
}: LessonPlanFormProps) {
  const [draft, setDraft] = useState<LessonPlanDraft>(initial);
  const [titleError, setTitleError] = useState<string | undefined>(undefined);

  const set = <K extends keyof LessonPlanDraft>(key: K, value: LessonPlanDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const setPhase = (key: PhaseKey, patch: Partial<LessonPlanPhase>) =>
    setDraft((d) => ({ ...d, [key]: { ...(d[key] as AnyPhase), ...patch } }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.title.trim() === '') {
      setTitleError(ClassroomMessages.lessonPlanTitleRequired);
      onInvalid(ClassroomMessages.lessonPlanTitleRequired);
      return;
    }
    const parsed = lessonPlanInputSchema.safeParse(draft);
    if (!parsed.success) {
      onInvalid(parsed.error.issues[0]?.message ?? ClassroomMessages.saveLessonPlanFailed);
      return;
    }
    setTitleError(undefined);
    onSubmit(parsed.data);
  };

  return (
    <Card>
      <CardHeader title={mode === 'edit' ? 'Edit Lesson Plan' : ClassroomMessages.createLessonPlan} />
      <CardBody>
        <form
          noValidate
          onSubmit={submit}
          aria-label={mode === 'edit' ? 'Edit lesson plan' : 'Create lesson plan'}
          className="space-y-6"
        >
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            <TextField
              label="Lesson Title"
              required
              maxLength={LESSON_PLAN_TITLE_MAX}
              value={draft.title}
              error={titleError}
              onChange={(e) => {
                set('title', e.target.value);
                if (e.target.value.trim() !== '') setTitleError(undefined);
              }}
            />
            <TextField
              label="Teacher"
              maxLength={LESSON_PLAN_SHORT_MAX}
              value={draft.teacher}
              onChange={(e) => set('teacher', e.target.value)}
            />
            <TextField
              label="Date"
              type="date"
              value={draft.date}
              onChange={(e) => set('date', e.target.value)}
            />
            <TextField
              label="Subject"
              maxLength={LESSON_PLAN_SHORT_MAX}
              value={draft.subject}
              onChange={(e) => set('subject', e.target.value)}
            />
            <TextField
              label="Topic/Unit"
              maxLength={LESSON_PLAN_SHORT_MAX}
              value={draft.topic}
              onChange={(e) => set('topic', e.target.value)}
              className="md:col-span-2"
            />
          </div>
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            {PLAN_TEXT_FIELDS.map((f) => (
              <TextAreaField
                key={f.key}
                label={f.label}
                rows={TEXT_ROWS}
                maxLength={LESSON_PLAN_TEXT_MAX}
                value={draft[f.key]}
                onChange={(e) => set(f.key, e.target.value)}
              />
            ))}
          </div>

          {LESSON_PLAN_PHASES.map((phase) => {
            const value = draft[phase.key] as AnyPhase;
            return (
              <fieldset
                key={phase.key}
                data-phase={phase.key}
                className="space-y-3 rounded-xl border border-slate-200 p-4"
              >
                <legend className="px-1 text-base font-semibold text-slate-900">{phase.label}</legend>
                <TextField
                  label="Time Allotted"
                  placeholder={LESSON_PLAN_TIME_PLACEHOLDER}
                  maxLength={LESSON_PLAN_SHORT_MAX}
                  value={value.timeAllotted}
                  onChange={(e) => setPhase(phase.key, { timeAllotted: e.target.value })}
                  className="max-w-xs"
                />
                <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
                  <TextAreaField
                    label="Teacher Will"
                    rows={PHASE_TEXT_ROWS}
                    maxLength={LESSON_PLAN_TEXT_MAX}
                    value={value.teacherWill}
                    onChange={(e) => setPhase(phase.key, { teacherWill: e.target.value })}
                  />
                  <TextAreaField
                    label="Students Will"
                    rows={PHASE_TEXT_ROWS}
                    maxLength={LESSON_PLAN_TEXT_MAX}
                    value={value.studentsWill}
                    onChange={(e) => setPhase(phase.key, { studentsWill: e.target.value })}
                  />
                </div>
                {phase.hasInstructionTypes && 'instructionTypes' in value ? (
                  <fieldset>
                    <legend className="mb-2 text-sm font-medium text-slate-700">Instruction Types</legend>
                    <div className="flex flex-wrap gap-x-5 gap-y-2">
                      {INSTRUCTION_TYPES.map((type: InstructionType) => (
                        <label key={type} className="inline-flex items-center gap-2 text-sm text-slate-800">
                          <input
                            type="checkbox"
                            className="size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-600"
                            checked={value.instructionTypes.includes(type)}
                            onChange={() =>
                              setPhase(phase.key, {
                                instructionTypes: toggleInstructionType(
                                  value.instructionTypes,
                                  type,
                                  INSTRUCTION_TYPES,
                                ),
                              })
                            }
                          />
                          {type}
                        </label>
                      ))}
                    </div>
                  </fieldset>
                ) : null}
              </fieldset>
            );
          })}

          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            <TextField
              label="Total Time"
              maxLength={LESSON_PLAN_SHORT_MAX}
              value={draft.totalTime}
              onChange={(e) => set('totalTime', e.target.value)}
              className="max-w-xs md:col-span-2"
            />
            <TextAreaField
              label="Evaluation (Check for Understanding)"
              rows={TEXT_ROWS}
              maxLength={LESSON_PLAN_TEXT_MAX}
              value={draft.evaluation}
              onChange={(e) => set('evaluation', e.target.value)}
            />
            <TextAreaField
              label="Reflection"
              rows={TEXT_ROWS}
              maxLength={LESSON_PLAN_TEXT_MAX}
              value={draft.reflection}
              onChange={(e) => set('reflection', e.target.value)}
            />
          </div>

          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={saving}>
              {mode === 'edit' ? ClassroomMessages.updatePlan : ClassroomMessages.createPlan}
            </Button>
            <Button variant="outline" onClick={onCancel} disabled={saving}>
              {ClassroomMessages.cancel}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
