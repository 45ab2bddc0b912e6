import { useSearchParams, Link } from 'react-router';
import type { ClassSummary } from '@district/contracts/identity';
import {
  Badge,
  QueryState,
  SelectField,
  Table,
  TableBody,
  TableCell,
  TableEmpty,
  TableHead,
  TableHeaderCell,
  TableRow,
} from '@/components/ui';
import { LoadMore } from '@/components/ui/load-more';
import { PageContainer, PageHeader } from '@/components/layout';
import { rowsOf } from '@/lib/paging';
import { useSchools } from '@/lib/roster';
import { useSchoolClasses } from '../api/classes';
import { DistrictTexts } from '../district.constants';
import { classPath } from './district-links';

export function ClassesTable({
  classes,
  caption,
  empty,
  showSchool = false,
}: {
  classes: ClassSummary[];
  caption: string;
  empty: string;
  showSchool?: boolean;
}) {
  const columns = showSchool ? 6 : 5;
  return (
    <Table caption={caption}>
      <TableHead>
        <tr>
          <TableHeaderCell>Class</TableHeaderCell>
          {showSchool ? <TableHeaderCell>School</TableHeaderCell> : null}
          <TableHeaderCell>Course</TableHeaderCell>
          <TableHeaderCell>Term</TableHeaderCell>
          <TableHeaderCell>Teachers</TableHeaderCell>
          <TableHeaderCell>Students</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {classes.length === 0 ? (
          <TableEmpty colSpan={columns}>{empty}</TableEmpty>
        ) : (
          classes.map((c) => (
            <TableRow key={c.id} data-class-id={c.id}>
              <TableCell>
                <Link
                  to={classPath(c.id)}
                  className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                >
                  {c.title}
                </Link>
                {c.active ? null : (
                  <Badge tone="neutral" className="ml-2">
                    Ended
                  </Badge>
                )}
              </TableCell>
              {showSchool ? <TableCell>{c.schoolName}</TableCell> : null}
              <TableCell>{c.courseCode ?? '—'}</TableCell>
              <TableCell>{c.term ?? '—'}</TableCell>
              <TableCell>{c.teacherCount}</TableCell>
              <TableCell>{c.studentCount}</TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}

function SchoolClasses({ schoolId, schoolName }: { schoolId: string; schoolName: string }) {
  const classes = useSchoolClasses(schoolId);
  const rows = rowsOf(classes.data);
  return (
    <QueryState
      query={classes}
      loading="Loading classes…"
      errorTitle={DistrictTexts.classesLoadFailed}
      errorText="Please try again in a moment."
      retryLabel="Try again"
    >
      {() => (
        <>
          <ClassesTable
            classes={rows.items}
            caption={`Classes of ${schoolName}`}
            empty={DistrictTexts.noClasses}
          />
          <LoadMore
            shown={rows.items.length}
            total={rows.total}
            hasMore={rows.hasMore}
            loading={classes.isFetchingNextPage}
            onLoadMore={() => void classes.fetchNextPage()}
            noun="classes"
          />
        </>
      )}
    </QueryState>
  );
}

/**
 * /admin/classes and /schools/classes: a school's classes, paged on the server, with a picker of the schools the
 * caller manages (`?schoolId=`). A school administrator of one school has it chosen already.
 */
export function ClassesPage() {
  const schools = useSchools();
  const [params, setParams] = useSearchParams();
  const managed = (schools.data ?? []).filter((s) => s.canManage);
  const asked = (params.get('schoolId') ?? '').toLowerCase();
  // A school administrator of one school has nothing to choose.
  const school =
    managed.find((s) => s.id.toLowerCase() === asked) ?? (managed.length === 1 ? managed[0] : null);
  return (
    <PageContainer>
      <PageHeader title={DistrictTexts.classesTitle} description={DistrictTexts.classesDescription} />
      <QueryState
        query={schools}
        loading="Loading schools…"
        errorTitle={DistrictTexts.schoolsLoadFailed}
        errorText="Please try again in a moment."
        retryLabel="Try again"
      >
        {() => (
          <div className="space-y-6">
            <SelectField
              label="School"
              value={school?.id ?? ''}
              onChange={(e) => setParams(e.target.value ? { schoolId: e.target.value } : {})}
              className="max-w-sm"
            >
              <option value="">Choose a school</option>
              {managed.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </SelectField>
            {school ? (
              <SchoolClasses key={school.id} schoolId={school.id} schoolName={school.name} />
            ) : (
              <p className="text-slate-600">
                {managed.length ? DistrictTexts.chooseSchool : DistrictTexts.noSchools}
              </p>
            )}
          </div>
        )}
      </QueryState>
    </PageContainer>
  );
}
