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

/** Create or edit a quiz (spec §4 "Quiz edit", §5, §8), teachers and admins only. */
export function QuizForm({ kind, quiz, onDone }: { kind: QuizKind; quiz: Quiz | null; onDone: () => void }) {
  const { draft, set, setQuestion, setOption, addQuestion, removeQuestion } = useQuizDraft(quiz);
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
    void save.run({ id: quiz?.id ?? null, body: toQuizWrite(kind, draft) }).then((outcome) => {
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
