import type { QuizKind } from '@district/contracts/assessment';
import { Button, Card, CardBody, CardFooter } from '@/components/ui';
import { AssessmentMessages } from '@district/contracts/assessment';
import { attemptsExhausted, mayChange, type ListedQuiz } from '../api/quizzes';
import { attemptsUsedLabel, QuizMessages } from '../quizzes.constants';

export interface QuizListProps {
  kind: QuizKind;
  quizzes: ListedQuiz[];
  staff: boolean;
  startingId: string | null;
  onStart: (quiz: ListedQuiz) => void;
  onEdit: (quiz: ListedQuiz) => void;
  onDelete: (quiz: ListedQuiz) => void;
}

/**
 * The list of quizzes (spec §2): title, description, question count, attempts allowed, and the caller's attempts
 * used (issue #34); Start is disabled at the limit with the spec's sentence as the reason. Edit and Delete where
 * the server says the caller may change the quiz (its owner, administrators).
 */
export function QuizList({ kind, quizzes, staff, startingId, onStart, onEdit, onDelete }: QuizListProps) {
  if (quizzes.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-slate-300 p-10 text-center text-slate-600">
        {staff ? QuizMessages.noQuizzesStaff : QuizMessages.noQuizzes}
      </p>
    );
  }
  return (
    <ul
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
      aria-label={kind === 'audio' ? 'Audio quizzes' : 'Text quizzes'}
    >
      {quizzes.map((quiz) => {
        const count = quiz.questions.length;
        const exhausted = attemptsExhausted(quiz);
        const reasonId = `quiz-${quiz.id}-limit`;
        return (
          <li key={quiz.id} aria-labelledby={`quiz-${quiz.id}`}>
            <Card className="flex h-full flex-col">
              <CardBody className="flex-1">
                <h2 id={`quiz-${quiz.id}`} className="text-lg font-semibold text-slate-900">
                  {quiz.title}
                </h2>
                {quiz.description ? <p className="mt-1 text-sm text-slate-600">{quiz.description}</p> : null}
                <dl className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
                  <div className="flex gap-1">
                    <dt className="sr-only">Questions</dt>
                    <dd>{count === 1 ? '1 question' : `${count} questions`}</dd>
                  </div>
                  <div className="flex gap-1">
                    <dt>Attempts allowed:</dt>
                    <dd>{quiz.maxAttempts === -1 ? 'Unlimited' : quiz.maxAttempts}</dd>
                  </div>
                  <div className="flex gap-1" data-testid="attempts-used">
                    <dt className="sr-only">Your attempts</dt>
                    <dd>{attemptsUsedLabel(quiz.attemptsUsed, quiz.attemptsAllowed)}</dd>
                  </div>
                  {kind === 'audio' && quiz.audioPlayLimit !== null ? (
                    <div className="flex gap-1">
                      <dt>Plays per question:</dt>
                      <dd>{quiz.audioPlayLimit}</dd>
                    </div>
                  ) : null}
                </dl>
                {quiz.createdByName ? (
                  <p className="mt-2 text-xs text-slate-500">By {quiz.createdByName}</p>
                ) : null}
                {exhausted ? (
                  <p id={reasonId} className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
                    <span className="font-semibold">{AssessmentMessages.attemptLimitTitle}:</span>{' '}
                    {AssessmentMessages.attemptLimit(quiz.attemptsUsed, quiz.attemptsAllowed)}
                  </p>
                ) : null}
              </CardBody>
              <CardFooter>
                <Button
                  onClick={() => onStart(quiz)}
                  loading={startingId === quiz.id}
                  disabled={startingId !== null || count === 0 || exhausted}
                  aria-label={`Start Quiz: ${quiz.title}`}
                  aria-describedby={exhausted ? reasonId : undefined}
                >
                  Start Quiz
                </Button>
                {staff && mayChange(quiz) ? (
                  <>
                    <Button variant="outline" onClick={() => onEdit(quiz)} aria-label={`Edit ${quiz.title}`}>
                      Edit
                    </Button>
                    <Button
                      variant="danger"
                      onClick={() => onDelete(quiz)}
                      aria-label={`Delete ${quiz.title}`}
                    >
                      Delete
                    </Button>
                  </>
                ) : null}
              </CardFooter>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
