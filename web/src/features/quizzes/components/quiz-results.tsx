import { AssessmentMessages, PASS_MARK, type Grade } from '@district/contracts/assessment';
import { Alert, Button, Card, CardBody, CardHeader } from '@/components/ui';
import { QuestionReview } from '@/components/quiz';
import { QuizMessages } from '../quizzes.constants';

/** Results after a submission (spec §4, §5): score, correct/total, 70 or more as success, then the Question Review. */
export function QuizResults({ grade, onBack }: { grade: Grade; onBack: () => void }) {
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
        <Alert
          tone={passed ? 'success' : 'warning'}
          title={passed ? AssessmentMessages.passed : 'Not passed yet'}
        >
          <p className="text-2xl font-bold">{grade.score}%</p>
          <p>
            {grade.correctAnswers} / {grade.totalQuestions} correct
          </p>
          {passed ? null : <p className="mt-1">{QuizMessages.warningResult}</p>}
        </Alert>
      </div>

      <Card>
        <CardHeader title="Question Review" />
        <CardBody>
          <QuestionReview grade={grade} markWrongPick="always" idPrefix="review" />
        </CardBody>
      </Card>

      <Button onClick={onBack}>Back to Quizzes</Button>
    </section>
  );
}
