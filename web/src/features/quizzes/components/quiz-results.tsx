import { AssessmentMessages, PASS_MARK, type Grade, type QuizKind } from '@district/contracts/assessment';
import { Alert, Badge, Button, Card, CardBody, CardHeader } from '@/components/ui';
import { cn } from '@/lib/cn';
import { AudioPlayButton } from '@/components/audio';
import { QuizMessages } from '../quizzes.constants';

/** Results after a submission (spec §4, §5): score, correct/total, 70 or more as success, then the Question Review. */
export function QuizResults({ kind, grade, onBack }: { kind: QuizKind; grade: Grade; onBack: () => void }) {
  const passed = grade.score >= PASS_MARK;
  return (
    <section aria-labelledby="quiz-results-title" className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 tabIndex={-1} id="quiz-results-title" className="text-xl font-bold text-slate-900">
          Results: {grade.quizTitle}
        </h2>
        <Button variant="outline" onClick={onBack}>
          Back to Quizzes
        </Button>
      </div>

      <div data-result={passed ? 'success' : 'warning'}>
        <Alert tone={passed ? 'success' : 'warning'} title={passed ? AssessmentMessages.passed : 'Not passed yet'}>
          <p className="text-2xl font-bold">
            {grade.score}%
          </p>
          <p>
            {grade.correctAnswers} / {grade.totalQuestions} correct
          </p>
          {passed ? null : <p className="mt-1">{QuizMessages.warningResult}</p>}
        </Alert>
      </div>

      <Card>
        <CardHeader title="Question Review" />
        <CardBody>
          <ol className="space-y-5">
            {grade.questions.map((q, index) => {
              const picked = grade.userAnswers[index];
              const right = picked === q.correctAnswer;
              return (
                <li key={index} aria-labelledby={`review-${index}`} className="rounded-xl border border-slate-200 p-4" data-review-question={index}>
                  <div className="flex flex-wrap items-center gap-2">
                    <p id={`review-${index}`} className="font-semibold text-slate-900">
                      {index + 1}. {q.question}
                    </p>
                    {kind === 'text' ? <Badge tone={right ? 'success' : 'danger'}>{right ? 'Correct' : 'Incorrect'}</Badge> : null}
                  </div>
                  {kind === 'audio' && q.audioUrl ? (
                    <div className="mt-2">
                      <AudioPlayButton key={q.audioUrl} src={q.audioUrl} />
                    </div>
                  ) : null}
                  <ul className="mt-3 space-y-1.5">
                    {q.options.map((option, i) => {
                      const correct = i === q.correctAnswer;
                      const wrongPick = i === picked && !correct;
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
        </CardBody>
      </Card>

      <Button onClick={onBack}>Back to Quizzes</Button>
    </section>
  );
}
