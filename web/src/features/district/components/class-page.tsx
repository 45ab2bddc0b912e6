import { useParams } from 'react-router';
import type { ClassDetail, ClassMember } from '@district/contracts/identity';
import {
  ButtonLink,
  buttonClasses,
  QueryState,
  Table,
  TableBody,
  TableCell,
  TableEmpty,
  TableHead,
  TableHeaderCell,
  TableRow,
} from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { ApiError, errorMessage } from '@/lib/api-client';
import { isTeacherOrAdmin, useSession } from '@/lib/auth';
import { classResultsZipUrl, useClass } from '../api/classes';
import { DistrictTexts } from '../district.constants';
import { gradesPathFor } from './district-links';

function MembersTable({
  caption,
  members,
  empty,
}: {
  caption: string;
  members: ClassMember[];
  empty: string;
}) {
  const withEmail = members.some((m) => m.email !== undefined);
  return (
    <section aria-labelledby={`${caption}-heading`} className="space-y-3">
      <h2 id={`${caption}-heading`} className="text-lg font-semibold text-slate-900">
        {caption} ({members.length})
      </h2>
      <Table caption={caption}>
        <TableHead>
          <tr>
            <TableHeaderCell>Name</TableHeaderCell>
            {withEmail ? <TableHeaderCell>Email</TableHeaderCell> : null}
          </tr>
        </TableHead>
        <TableBody>
          {members.length === 0 ? (
            <TableEmpty colSpan={withEmail ? 2 : 1}>{empty}</TableEmpty>
          ) : (
            members.map((m) => (
              <TableRow key={m.id} data-user-id={m.id}>
                <TableCell className="font-medium text-slate-900">{m.name}</TableCell>
                {withEmail ? <TableCell>{m.email ?? ''}</TableCell> : null}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </section>
  );
}

function ClassView({ detail, staff }: { detail: ClassDetail; staff: boolean }) {
  const facts = [detail.schoolName, detail.courseCode, detail.term].filter(Boolean).join(' · ');
  return (
    <>
      <PageHeader
        title={detail.title}
        description={facts}
        actions={
          staff ? (
            <>
              <ButtonLink to={gradesPathFor('audio', detail.id)} variant="outline">
                Quiz grades
              </ButtonLink>
              <ButtonLink to={gradesPathFor('text', detail.id)} variant="outline">
                Text quiz grades
              </ButtonLink>
              <a href={classResultsZipUrl(detail.id)} download className={buttonClasses('outline')}>
                Download results (OneRoster zip)
              </a>
            </>
          ) : undefined
        }
      />
      <div className="space-y-8">
        <MembersTable caption="Teachers" members={detail.teachers} empty={DistrictTexts.noTeachers} />
        <MembersTable caption="Students" members={detail.students} empty={DistrictTexts.noStudents} />
      </div>
    </>
  );
}

/** /classes/:id — one class's roster; its teachers and administrators also get its grades and the results zip. */
export function ClassPage() {
  const { id = '' } = useParams();
  const { user } = useSession();
  const detail = useClass(id.toLowerCase());
  return (
    <PageContainer>
      <QueryState
        query={detail}
        loading="Loading the class…"
        errorTitle={DistrictTexts.classLoadFailed}
        errorText={(err) =>
          err instanceof ApiError && err.status === 404
            ? errorMessage(err, 'Class not found')
            : errorMessage(err, 'Please try again in a moment.')
        }
        retryLabel="Try again"
      >
        {(found) => <ClassView detail={found} staff={isTeacherOrAdmin(user)} />}
      </QueryState>
    </PageContainer>
  );
}
