import type { QuizKind } from '@district/contracts/assessment';
import { ButtonLink, Card, CardBody, CardHeader, QueryState } from '@/components/ui';
import { useRecentGrades } from '../api/grades';
import { GRADE_KINDS } from '../grades.constants';
import { gradesQueryStates } from './grades-states';
import { GradesTable } from './grades-table';

/** How many recent results the quizzes screen shows (all it asks the server for); the dashboard has them all. */
export const RECENT_GRADES_SHOWN = 10;

/**
 * The audio quizzes screen's "student grades table for teachers and admins" (spec §2): the latest results, read
 * only, with a link to the full dashboard. The quizzes screen renders it for staff only.
 */
export function QuizGradesSection({ kind }: { kind: QuizKind }) {
  const info = GRADE_KINDS[kind];
  const grades = useRecentGrades(kind, RECENT_GRADES_SHOWN);
  const total = grades.data ? (grades.data.total ?? grades.data.items.length) : 0;
  return (
    <Card>
      <CardHeader
        title="Student Grades"
        description={
          total > RECENT_GRADES_SHOWN
            ? `The latest ${RECENT_GRADES_SHOWN} of ${total.toLocaleString('en-US')} results.`
            : 'The latest results of your students.'
        }
        actions={
          <ButtonLink to={info.route} variant="outline" size="sm">
            Open Grades Dashboard
          </ButtonLink>
        }
      />
      <CardBody>
        <QueryState query={grades} {...gradesQueryStates}>
          {(page) => (
            <GradesTable
              grades={page.items.slice(0, RECENT_GRADES_SHOWN)}
              caption="Student grades"
              empty={info.empty}
              showTime={kind === 'text'}
            />
          )}
        </QueryState>
      </CardBody>
    </Card>
  );
}
