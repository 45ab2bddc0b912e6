import type { Grade } from '@district/contracts/assessment';
import { AudioPlayButton } from '@/components/audio';
import { Badge } from '@/components/ui';
import { cn } from '@/lib/cn';

export interface QuestionReviewProps {
  /** The result, with its snapshot of the questions as they were answered. */
  grade: Grade;
  /**
   * Where the student's wrong pick is marked 'Your Answer': on every result (the results after submitting) or only
   * on text quizzes (the profile's review, as the spec words it).
   */
  markWrongPick: 'always' | 'text-only';
  /** Gives each question's text an id (`${idPrefix}-${n}`) the item is labelled by. */
  idPrefix?: string;
  /** The list's own accessible name, when no heading names it. */
  label?: string;
}

/** Why a result's review has no answer key (the quiz's `revealAnswers`, decided by the server: ADR 0033). */
export const WITHHELD_KEY_NOTES = {
  afterLastAttempt: 'The correct answers will be shown once you have used all your attempts on this quiz.',
  never: 'Your teacher has chosen not to show the correct answers for this quiz.',
} as const;

/**
 * The Question Review (classroom-tools §2, §4) of one result: each question as answered, a play button for audio
 * ones, a Correct/Incorrect badge for text ones, and its options with 'Correct Answer' on the key and 'Your Answer'
 * on a wrong pick. Shown after submitting (features/quizzes) and in the profile (features/grades). When the server
 * withholds the key, every question shows Correct/Incorrect and 'Your Answer' on the pick, and a note says why.
 */
export function QuestionReview({ grade, markWrongPick, idPrefix, label }: QuestionReviewProps) {
  const withheld = grade.answerKey !== 'shown';
  return (
    <div className="space-y-4">
      {grade.answerKey !== 'shown' ? (
        <p
          className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700"
          data-testid="answer-key-withheld"
        >
          {WITHHELD_KEY_NOTES[grade.answerKey]}
        </p>
      ) : null}
      <ol className="space-y-4" aria-label={label}>
        {grade.questions.map((q, index) => {
          const picked = grade.userAnswers[index];
          const right = grade.answersCorrect[index] ?? picked === q.correctAnswer;
          const textId = idPrefix ? `${idPrefix}-${index}` : undefined;
          return (
            <li
              key={index}
              aria-labelledby={textId}
              className="rounded-xl border border-slate-200 p-4"
              data-review-question={index}
            >
              <div className="flex flex-wrap items-center gap-2">
                <p id={textId} className="font-semibold text-slate-900">
                  {index + 1}. {q.question}
                </p>
                {grade.kind === 'text' || withheld ? (
                  <Badge tone={right ? 'success' : 'danger'}>{right ? 'Correct' : 'Incorrect'}</Badge>
                ) : null}
              </div>
              {grade.kind === 'audio' && q.audioUrl ? (
                <div className="mt-2">
                  <AudioPlayButton key={q.audioUrl} src={q.audioUrl} />
                </div>
              ) : null}
              <ul className="mt-3 space-y-1.5">
                {q.options.map((option, i) => {
                  // Without the key the pick is the one option marked, in the colour of whether it was right.
                  const correct = withheld ? i === picked && right : i === q.correctAnswer;
                  const wrongPick = withheld
                    ? i === picked && !right
                    : (markWrongPick === 'always' || grade.kind === 'text') && i === picked && !correct;
                  return (
                    <li
                      key={i}
                      className={cn(
                        'flex flex-wrap items-center gap-2 rounded-lg border px-3 py-2 text-sm',
                        correct
                          ? 'border-emerald-300 bg-emerald-50'
                          : wrongPick
                            ? 'border-red-300 bg-red-50'
                            : 'border-slate-200',
                      )}
                    >
                      <span>{option}</span>
                      {correct && !withheld ? <Badge tone="success">Correct Answer</Badge> : null}
                      {correct && withheld ? <Badge tone="success">Your Answer</Badge> : null}
                      {wrongPick ? <Badge tone="danger">Your Answer</Badge> : null}
                    </li>
                  );
                })}
              </ul>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
