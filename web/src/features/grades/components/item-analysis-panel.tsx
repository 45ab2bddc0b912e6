import type { QuizKind } from '@district/contracts/assessment';
import {
  Badge,
  Card,
  CardBody,
  CardHeader,
  QueryState,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
} from '@/components/ui';
import { useItemAnalysis } from '../api/quiz-insights';
import { GradeMessages } from '../grades.constants';
import { itemFlags, percent } from '../item-analysis-flags';

const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F'];

/** Item analysis of one quiz (ADR 0019 §8): per question % correct, discrimination, option picks and flags. */
export function ItemAnalysisPanel({
  kind,
  quizId,
  quizTitle,
  classId,
}: {
  kind: QuizKind;
  quizId: string;
  quizTitle: string;
  /** One class's students only (the dashboard's class filter). */
  classId?: string;
}) {
  const analysis = useItemAnalysis(kind, quizId, classId);
  return (
    <Card>
      <CardHeader
        title="Item Analysis"
        description="How each question of the selected quiz worked: the share of results that got it right, how well it separates stronger from weaker results, and how often each option was picked."
      />
      <CardBody>
        <QueryState
          query={analysis}
          loadingView={<Spinner label="Loading item analysis..." />}
          errorTitle={GradeMessages.analysisFailed}
          errorText="Please try again in a moment."
        >
          {(report) => (
            <div className="space-y-3">
              <p className="text-sm text-slate-600" data-testid="analysis-summary">
                {report.results} {report.results === 1 ? 'result' : 'results'} on the current version (version{' '}
                {report.version})
                {report.olderResults > 0
                  ? `; ${report.olderResults} on earlier versions left out because their questions differ`
                  : ''}
                .
              </p>
              <Table caption={`Item analysis of ${quizTitle}`}>
                <TableHead>
                  <tr>
                    <TableHeaderCell>Question</TableHeaderCell>
                    <TableHeaderCell>% Correct</TableHeaderCell>
                    <TableHeaderCell>Discrimination</TableHeaderCell>
                    <TableHeaderCell>Option Picks</TableHeaderCell>
                    <TableHeaderCell>Flags</TableHeaderCell>
                  </tr>
                </TableHead>
                <TableBody>
                  {report.questions.map((item, index) => {
                    const total = item.optionCounts.reduce((a, b) => a + b, 0);
                    const flags = itemFlags(item);
                    return (
                      <TableRow key={index} data-analysis-question={index}>
                        <TableCell className="max-w-xs">
                          <span className="font-medium text-slate-900">
                            {index + 1}. {item.question}
                          </span>
                        </TableCell>
                        <TableCell>{percent(item.facility)}</TableCell>
                        <TableCell>
                          {item.discrimination === null ? '—' : item.discrimination.toFixed(2)}
                        </TableCell>
                        <TableCell>
                          <ul className="space-y-0.5 text-xs">
                            {item.optionCounts.map((count, i) => (
                              <li
                                key={i}
                                className={
                                  i === item.correctAnswer ? 'font-semibold text-emerald-800' : undefined
                                }
                              >
                                {LETTERS[i] ?? i + 1}: {count} ({total === 0 ? '0%' : percent(count / total)})
                                {i === item.correctAnswer ? (
                                  <span className="sr-only"> (correct answer)</span>
                                ) : null}
                              </li>
                            ))}
                          </ul>
                        </TableCell>
                        <TableCell>
                          <span className="flex flex-wrap gap-1">
                            {flags.includes('hard') ? <Badge tone="warning">Hard</Badge> : null}
                            {flags.includes('confusing') ? <Badge tone="danger">Confusing</Badge> : null}
                            {flags.length === 0 ? <span className="text-slate-600">None</span> : null}
                          </span>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </div>
          )}
        </QueryState>
      </CardBody>
    </Card>
  );
}
