import { PASS_MARK, type Grade } from '@district/contracts/assessment';
import {
  Badge,
  Button,
  Table,
  TableBody,
  TableCell,
  TableEmpty,
  TableHead,
  TableHeaderCell,
  TableRow,
} from '@/components/ui';
import { completedAt, formatDate, formatTime } from '../grade-stats';
import { GradeMessages } from '../grades.constants';

export interface GradesTableProps {
  grades: readonly Grade[];
  caption: string;
  /** Shown as the only row when there are no results. */
  empty: string;
  /** The text dashboard shows the completion time under the date (spec §2). */
  showTime?: boolean;
  /** With it, an Actions column with Delete per row. */
  onDelete?: (grade: Grade) => void;
  className?: string;
  /** The rows are the previous filter's while the new one loads: the table is marked busy, and no empty text. */
  busy?: boolean;
}

export function ScoreBadge({ score }: { score: number }) {
  return <Badge tone={score >= PASS_MARK ? 'success' : 'warning'}>{score}%</Badge>;
}

/** The results table of the grade dashboards (spec §2): Student Name, Quiz Title, Score, Correct/Total, Date Completed, Actions. */
export function GradesTable({
  grades,
  caption,
  empty,
  showTime = false,
  onDelete,
  className,
  busy = false,
}: GradesTableProps) {
  const columns = onDelete ? 6 : 5;
  return (
    <Table caption={caption} className={className} busy={busy}>
      <TableHead>
        <tr>
          <TableHeaderCell>Student Name</TableHeaderCell>
          <TableHeaderCell>Quiz Title</TableHeaderCell>
          <TableHeaderCell>Score</TableHeaderCell>
          <TableHeaderCell>Correct/Total</TableHeaderCell>
          <TableHeaderCell>Date Completed</TableHeaderCell>
          {onDelete ? <TableHeaderCell className="text-right">Actions</TableHeaderCell> : null}
        </tr>
      </TableHead>
      <TableBody>
        {grades.length === 0 ? (
          <TableEmpty colSpan={columns}>{busy ? GradeMessages.loading : empty}</TableEmpty>
        ) : (
          grades.map((g) => {
            const when = completedAt(g);
            return (
              <TableRow key={g.id} data-grade-id={g.id}>
                <TableCell className="font-medium text-slate-900">{g.userName}</TableCell>
                <TableCell>{g.quizTitle}</TableCell>
                <TableCell>
                  <ScoreBadge score={g.score} />
                </TableCell>
                <TableCell>
                  {g.correctAnswers}/{g.totalQuestions}
                </TableCell>
                <TableCell>
                  <time dateTime={when} className="block">
                    {formatDate(when)}
                  </time>
                  {showTime ? <span className="block text-xs text-slate-500">{formatTime(when)}</span> : null}
                </TableCell>
                {onDelete ? (
                  <TableCell className="text-right">
                    <Button
                      variant="danger"
                      size="sm"
                      onClick={() => onDelete(g)}
                      aria-label={`Delete result of ${g.userName} on ${g.quizTitle}`}
                    >
                      Delete
                    </Button>
                  </TableCell>
                ) : null}
              </TableRow>
            );
          })
        )}
      </TableBody>
    </Table>
  );
}
