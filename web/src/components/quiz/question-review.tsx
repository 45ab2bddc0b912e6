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

/**
 * The Question Review (classroom-tools §2, §4) of one result: each question as answered, a play button for audio
 * ones, a Correct/Incorrect badge for text ones, and its options with 'Correct Answer' on the key and 'Your Answer'
 * on a wrong pick. Shown after submitting (features/quizzes) and in the profile (features/grades).
 */
export function QuestionReview({ grade, markWrongPick, idPrefix, label }: QuestionReviewProps) {
  return (
    <ol className="space-y-4" aria-label={label}>
      {grade.questions.map((q, index) => {
        const picked = grade.userAnswers[index];
        const right = picked === q.correctAnswer;
        const textId = idPrefix ? `${idPrefix}-${index}` : undefined;
        return (
          <li key={index} aria-labelledby={textId} className="rounded-xl border border-slate-200 p-4" data-review-question={index}>
            <div className="flex flex-wrap items-center gap-2">
              <p id={textId} className="font-semibold text-slate-900">
                {index + 1}. {q.question}
              </p>
              {grade.kind === 'text' ? <Badge tone={right ? 'success' : 'danger'}>{right ? 'Correct' : 'Incorrect'}</Badge> : null}
            </div>
            {grade.kind === 'audio' && q.audioUrl ? (
              <div className="mt-2">
                <AudioPlayButton key={q.audioUrl} src={q.audioUrl} />
              </div>
            ) : null}
            <ul className="mt-3 space-y-1.5">
              {q.options.map((option, i) => {
                const correct = i === q.correctAnswer;
                const wrongPick = (markWrongPick === 'always' || grade.kind === 'text') && i === picked && !correct;
                return (
                  <li
                    key={i}
                    className={cn(
                      'flex flex-wrap items-center gap-2 rounded-lg border px-3 py-2 text-sm',
                      correct ? 'border-emerald-300 bg-emerald-50' : wrongPick ? 'border-red-300 bg-red-50' : 'border-slate-200',
                    )}
                  >
                    <span>{option}</span>
                    {correct ? <Badge tone="success">Correct Answer</Badge> : null}
                    {wrongPick ? <Badge tone="danger">Your Answer</Badge> : null}
                  </li>
                );
              })}
            </ul>
          </li>
        );
      })}
    </ol>
  );
}
