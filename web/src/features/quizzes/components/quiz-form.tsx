import { useState, type FormEvent } from 'react';
import {
  AUDIO_PLAY_LIMIT_MAX,
  MAX_ATTEMPTS_OPTIONS,
  QUIZ_OPTIONS_COUNT,
  REVEAL_ANSWERS_OPTIONS,
  type Quiz,
  type QuizKind,
  type RevealAnswers,
} from '@district/contracts/assessment';
import {
  Alert,
  Button,
  Card,
  CardBody,
  SelectField,
  TextAreaField,
  TextField,
  useToastMutation,
} from '@/components/ui';
import { errorMessage } from '@/lib/api-client';
import { useMyClasses } from '@/lib/roster';
import { useSaveQuiz } from '../api/quizzes';
import { AudioUrlTest } from '@/components/audio';
import { canSave, firstProblem, toQuizWrite, useQuizDraft } from '../hooks/use-quiz-draft';
import {
  attemptsLabel,
  QuizMessages,
  REVEAL_ANSWERS_HINT,
  REVEAL_ANSWERS_LABELS,
} from '../quizzes.constants';

const PLAY_LIMITS = Array.from({ length: AUDIO_PLAY_LIMIT_MAX }, (_, i) => i + 1);

const QUIZ_CLASSES_HINT =
  'Only the students of the checked classes see this quiz. None checked: every student.';

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/**
 * 'Classes' (ADR 0042): the author's own classes as checkboxes; none checked is the spec's quiz, open to every
 * student. Shown only to someone with classes, so the one-school site's form is unchanged. A class the quiz is
 * assigned to that is not among the author's (another teacher's, for an administrator) stays assigned.
 */
function ClassesField({ selected, onChange }: { selected: string[]; onChange: (ids: string[]) => void }) {
  const classes = useMyClasses();
  const mine = classes.data ?? [];
  if (mine.length === 0) return null;
  const others = selected.filter((id) => !mine.some((c) => c.id === id)).length;
  const toggle = (id: string, checked: boolean) =>
    onChange(checked ? [...selected, id] : selected.filter((s) => s !== id));
  return (
    <fieldset className="sm:col-span-2" aria-describedby="quiz-classes-hint">
      <legend className="mb-1 block text-sm font-medium text-slate-700">Classes</legend>
      <p id="quiz-classes-hint" className="mb-2 text-xs text-slate-500">
        {QUIZ_CLASSES_HINT}
      </p>
      <ul className="grid gap-2 sm:grid-cols-2">
        {mine.map((c) => (
          <li key={c.id}>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="size-4 rounded border-slate-300"
                checked={selected.includes(c.id)}
                onChange={(e) => toggle(c.id, e.target.checked)}
              />
              {c.title}
              <span className="text-xs text-slate-500">{c.schoolName}</span>
            </label>
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <p className="mt-2 text-xs text-slate-500">
          Also assigned to {others} other {others === 1 ? 'class' : 'classes'}, kept as they are.
        </p>
      ) : null}
    </fieldset>
  );
}

/** Create or edit a quiz (spec §4 "Quiz edit", §5, §8), teachers and admins only. */
export function QuizForm({ kind, quiz, onDone }: { kind: QuizKind; quiz: Quiz | null; onDone: () => void }) {
  const { draft, set, setQuestion, setOption, addQuestion, removeQuestion } = useQuizDraft(quiz);
  const assigned = quiz?.classIds ?? [];
  const [classIds, setClassIds] = useState<string[]>(assigned);
  const [problem, setProblem] = useState<string | null>(null);
  const editing = quiz !== null;
  // The form shows a failure itself ('Error creating/updating quiz: …'), so only the success is a toast.
  const save = useToastMutation(useSaveQuiz(kind), {
    success: editing ? QuizMessages.quizUpdated : QuizMessages.quizCreated,
    log: 'Quiz save failed',
  });
  const enabled = canSave(kind, draft);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!enabled || save.isPending) return;
    const found = firstProblem(draft);
    setProblem(found);
    if (found) return;
    // Sent only when changed: a PUT without classIds keeps them, a POST without them is the spec's quiz.
    const body = sameIds(classIds, assigned)
      ? toQuizWrite(kind, draft)
      : { ...toQuizWrite(kind, draft), classIds };
    void save.run({ id: quiz?.id ?? null, body }).then((outcome) => {
      if (outcome.ok) onDone();
      else setProblem(QuizMessages.saveFailed(errorMessage(outcome.error, QuizMessages.unknownError)));
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="quiz-form-title" className="space-y-6">
      <h2 id="quiz-form-title" className="text-xl font-bold text-slate-900">
        {editing ? `Edit Quiz: ${quiz.title}` : `Create ${kind === 'audio' ? 'Audio' : 'Text'} Quiz`}
      </h2>

      <Card>
        <CardBody className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Title"
            value={draft.title}
            onChange={(e) => set('title', e.target.value)}
            required
            className="sm:col-span-2"
          />
          <TextAreaField
            label="Description"
            rows={3}
            value={draft.description}
            onChange={(e) => set('description', e.target.value)}
            className="sm:col-span-2"
          />
          <SelectField
            label="Max Attempts"
            value={String(draft.maxAttempts)}
            onChange={(e) => set('maxAttempts', Number(e.target.value))}
          >
            {MAX_ATTEMPTS_OPTIONS.map((n) => (
              <option key={n} value={n}>
                {n === -1 ? 'Unlimited' : attemptsLabel(n)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Show Correct Answers"
            hint={REVEAL_ANSWERS_HINT}
            value={draft.revealAnswers}
            onChange={(e) => set('revealAnswers', e.target.value as RevealAnswers)}
          >
            {REVEAL_ANSWERS_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {REVEAL_ANSWERS_LABELS[option]}
              </option>
            ))}
          </SelectField>
          {kind === 'audio' ? (
            <SelectField
              label="Audio Play Limit"
              hint="Plays of each question's audio per attempt (optional)."
              value={draft.audioPlayLimit === null ? '' : String(draft.audioPlayLimit)}
              onChange={(e) => set('audioPlayLimit', e.target.value === '' ? null : Number(e.target.value))}
            >
              <option value="">No limit</option>
              {PLAY_LIMITS.map((n) => (
                <option key={n} value={n}>
                  {n === 1 ? '1 play' : `${n} plays`}
                </option>
              ))}
            </SelectField>
          ) : null}
          <ClassesField selected={classIds} onChange={setClassIds} />
        </CardBody>
      </Card>

      <ol className="space-y-4">
        {draft.questions.map((q, index) => {
          const n = index + 1;
          return (
            <li key={index}>
              <Card>
                <CardBody>
                  <fieldset aria-label={`Question ${n}`} className="grid gap-3">
                    <div className="flex items-center justify-between gap-2">
                      <p className="font-semibold text-slate-900">Question {n}</p>
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => removeQuestion(index)}
                        aria-label={`Remove Question ${n}`}
                      >
                        Remove
                      </Button>
                    </div>
                    {kind === 'audio' ? (
                      <div className="flex flex-wrap items-end gap-2">
                        <TextField
                          label="Audio URL"
                          type="url"
                          placeholder="https://…/question.mp3"
                          value={q.audioUrl}
                          onChange={(e) => setQuestion(index, { audioUrl: e.target.value })}
                          className="min-w-0 flex-1"
                        />
                        <AudioUrlTest url={q.audioUrl} label={`Test audio URL for question ${n}`} />
                      </div>
                    ) : null}
                    <TextField
                      label="Question"
                      value={q.question}
                      onChange={(e) => setQuestion(index, { question: e.target.value })}
                    />
                    <div className="grid gap-3 sm:grid-cols-2">
                      {Array.from({ length: QUIZ_OPTIONS_COUNT }, (_, o) => (
                        <TextField
                          key={o}
                          label={`Option ${o + 1}`}
                          value={q.options[o]}
                          onChange={(e) => setOption(index, o, e.target.value)}
                        />
                      ))}
                    </div>
                    <SelectField
                      label="Correct Answer"
                      value={String(q.correctAnswer)}
                      onChange={(e) => setQuestion(index, { correctAnswer: Number(e.target.value) })}
                      className="sm:max-w-xs"
                    >
                      {Array.from({ length: QUIZ_OPTIONS_COUNT }, (_, o) => (
                        <option key={o} value={o}>
                          {`Option ${o + 1}`}
                        </option>
                      ))}
                    </SelectField>
                  </fieldset>
                </CardBody>
              </Card>
            </li>
          );
        })}
      </ol>

      <Button variant="outline" onClick={addQuestion}>
        Add Question
      </Button>

      {problem ? <Alert tone="error">{problem}</Alert> : null}

      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={!enabled} loading={save.isPending}>
          {editing ? 'Update Quiz' : 'Save Quiz'}
        </Button>
        <Button variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
