import { useState } from 'react';
import type { Grade, QuizKind } from '@district/contracts/assessment';
import { QuestionReview } from '@/components/quiz';
import { Button, Card, CardBody, CardHeader, QueryState, Tabs } from '@/components/ui';
import { useSession } from '@/lib/auth';
import { useGrades } from '../api/grades';
import { completedAt, formatDate, formatTime } from '../grade-stats';
import { GRADE_KINDS } from '../grades.constants';
import { gradesQueryStates } from './grades-states';
import { ScoreBadge } from './grades-table';

interface ResultListProps {
  kind: QuizKind;
  query: ReturnType<typeof useGrades>;
  userId: string;
  expandedId: string | null;
  onToggle: (id: string) => void;
}

function ResultList({ kind, query, userId, expandedId, onToggle }: ResultListProps) {
  const mine = (query.data ?? []).filter((g) => g.userId === userId);
  return (
    <QueryState
      query={query}
      {...gradesQueryStates}
      isEmpty={() => mine.length === 0}
      empty={<p className="py-6 text-center text-slate-600">{GRADE_KINDS[kind].profileEmpty}</p>}
    >
      {() => <MineList mine={mine} expandedId={expandedId} onToggle={onToggle} />}
    </QueryState>
  );
}

function MineList({
  mine,
  expandedId,
  onToggle,
}: {
  mine: Grade[];
  expandedId: string | null;
  onToggle: (id: string) => void;
}) {
  return (
    <ul className="divide-y divide-slate-100">
      {mine.map((g) => {
        const when = completedAt(g);
        const open = expandedId === g.id;
        const reviewId = `review-${g.id}`;
        return (
          <li key={g.id} className="py-3" data-result-id={g.id}>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <div className="min-w-0">
                <p id={`title-${g.id}`} className="font-semibold text-slate-900">
                  {g.quizTitle}
                </p>
                <p className="text-sm text-slate-500">
                  <time dateTime={when}>
                    {formatDate(when)} at {formatTime(when)}
                  </time>
                </p>
              </div>
              <div className="flex items-center gap-3">
                <ScoreBadge score={g.score} />
                <Button
                  variant="outline"
                  size="sm"
                  aria-expanded={open}
                  aria-controls={open ? reviewId : undefined}
                  aria-describedby={`title-${g.id}`}
                  onClick={() => onToggle(g.id)}
                >
                  {open ? 'Hide Details' : 'View Details'}
                </Button>
              </div>
            </div>
            {open ? (
              <section id={reviewId} aria-label={`Question Review for ${g.quizTitle}`} className="mt-4">
                <h3 className="mb-3 text-base font-semibold text-slate-900">Question Review</h3>
                <QuestionReview
                  grade={g}
                  markWrongPick="text-only"
                  label={`Question Review: ${g.quizTitle}`}
                />
              </section>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The profile's 'My Quiz Results' (classroom-tools §2, §4, §6): two tabs with counts, one expanded Question Review at a
 * time, built from each result's snapshot of the questions as answered. Asks with the signed-in user's own id and
 * keeps only their results (the server also forces it).
 */
export function MyQuizResults() {
  const { user } = useSession();
  const userId = user?.id ?? '';
  const [tab, setTab] = useState<QuizKind>('audio');
  const [expandedId, setExpandedId] = useState<string | null>(null);
  const audio = useGrades('audio', { userId }, Boolean(user));
  const text = useGrades('text', { userId }, Boolean(user));
  const count = (q: typeof audio) => (q.data ?? []).filter((g) => g.userId === userId).length;
  const toggle = (id: string) => setExpandedId((current) => (current === id ? null : id));
  const list = (kind: QuizKind, query: typeof audio) => (
    <ResultList kind={kind} query={query} userId={userId} expandedId={expandedId} onToggle={toggle} />
  );

  return (
    <Card className="mt-6">
      <CardHeader title="My Quiz Results" />
      <CardBody>
        <Tabs
          label="My Quiz Results"
          value={tab}
          onChange={(id) => setTab(id as QuizKind)}
          tabs={[
            {
              id: 'audio',
              label: `${GRADE_KINDS.audio.tabLabel} (${count(audio)})`,
              content: list('audio', audio),
            },
            {
              id: 'text',
              label: `${GRADE_KINDS.text.tabLabel} (${count(text)})`,
              content: list('text', text),
            },
          ]}
        />
      </CardBody>
    </Card>
  );
}
