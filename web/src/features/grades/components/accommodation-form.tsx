import { useState, type FormEvent } from 'react';
import { accommodationInputSchema, EXTRA_ATTEMPTS_MAX, type QuizKind } from '@district/contracts/assessment';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  SelectField,
  TextField,
  useToastMutation,
} from '@/components/ui';
import { accommodationErrorMessage, useSaveAccommodation } from '../api/quiz-insights';
import { GradeMessages } from '../grades.constants';

export interface AccommodationFormProps {
  kind: QuizKind;
  quizId: string;
  /** The students who have results on this quiz: the ones who can run out of attempts. */
  students: { id: string; name: string }[];
}

/**
 * A teacher's accommodation (services/assessment README): extra attempts for one student on the selected quiz,
 * 0 to 20, 0 removes them. The server has no read of the current value, so the form sets it.
 */
export function AccommodationForm({ kind, quizId, students }: AccommodationFormProps) {
  const [userId, setUserId] = useState('');
  const [extra, setExtra] = useState('1');
  const [error, setError] = useState<string | null>(null);
  const save = useToastMutation(useSaveAccommodation(kind), {
    success: (_data, sent) =>
      GradeMessages.accommodationSaved(
        sent.extraAttempts,
        students.find((s) => s.id === sent.userId)?.name ?? '',
      ),
    error: accommodationErrorMessage,
    log: 'Saving the accommodation failed',
  });
  const chosen = students.find((s) => s.id === userId) ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) {
      setError('Choose a student.');
      return;
    }
    const parsed = accommodationInputSchema.safeParse({
      extraAttempts: extra.trim() === '' ? Number.NaN : Number(extra),
    });
    if (!parsed.success) {
      setError(GradeMessages.extraAttemptsInvalid);
      return;
    }
    setError(null);
    const extraAttempts = parsed.data.extraAttempts;
    void save.run({ quizId, userId: chosen.id, extraAttempts });
  };

  return (
    <Card>
      <CardHeader
        title="Accommodations"
        description={`Give a student extra attempts on this quiz (0 to ${EXTRA_ATTEMPTS_MAX}; 0 removes them). They add to the quiz's own limit.`}
      />
      <CardBody>
        {students.length === 0 ? (
          <p className="text-sm text-slate-600">No student has a result on this quiz yet.</p>
        ) : (
          <form className="flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
            <SelectField
              label="Student"
              value={userId}
              onChange={(e) => setUserId(e.target.value)}
              className="min-w-48"
            >
              <option value="">Choose a student</option>
              {students.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </SelectField>
            <TextField
              label="Extra attempts"
              type="number"
              inputMode="numeric"
              min={0}
              max={EXTRA_ATTEMPTS_MAX}
              step={1}
              value={extra}
              onChange={(e) => setExtra(e.target.value)}
              className="w-36"
            />
            <Button type="submit" loading={save.isPending}>
              Save Extra Attempts
            </Button>
            {error ? (
              <p role="alert" className="w-full text-sm font-medium text-red-700">
                {error}
              </p>
            ) : null}
          </form>
        )}
      </CardBody>
    </Card>
  );
}
