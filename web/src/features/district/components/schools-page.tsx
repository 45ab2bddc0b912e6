import { Link } from 'react-router';
import type { School } from '@district/contracts/identity';
import {
  Badge,
  QueryState,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
} from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { useSchools } from '@/lib/roster';
import { DistrictTexts } from '../district.constants';
import { classesPath, type DistrictArea } from './district-links';

function SchoolsTable({ schools, area }: { schools: School[]; area: DistrictArea }) {
  return (
    <Table caption="Schools">
      <TableHead>
        <tr>
          <TableHeaderCell>School</TableHeaderCell>
          <TableHeaderCell>Identifier</TableHeaderCell>
          <TableHeaderCell>Classes</TableHeaderCell>
          <TableHeaderCell>Status</TableHeaderCell>
          <TableHeaderCell className="text-right">Actions</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {schools.map((s) => (
          <TableRow key={s.id} data-school-id={s.id}>
            <TableCell className="font-semibold text-slate-900">{s.name}</TableCell>
            <TableCell>{s.identifier ?? '—'}</TableCell>
            <TableCell>{s.classCount}</TableCell>
            <TableCell>
              {s.active ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Inactive</Badge>}
            </TableCell>
            <TableCell className="text-right">
              {s.canManage ? (
                <Link
                  to={classesPath(area, s.id)}
                  className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                  aria-label={`Classes of ${s.name}`}
                >
                  View classes
                </Link>
              ) : null}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The district's schools (a district administrator's: all; a school administrator's: theirs), with class counts. */
function SchoolsPage({ area }: { area: DistrictArea }) {
  const schools = useSchools();
  return (
    <PageContainer>
      <PageHeader title={DistrictTexts.schoolsTitle} description={DistrictTexts.schoolsDescription} />
      <QueryState
        query={schools}
        loading="Loading schools…"
        errorTitle={DistrictTexts.schoolsLoadFailed}
        errorText="Please try again in a moment."
        retryLabel="Try again"
        empty={<p className="py-10 text-center text-slate-500">{DistrictTexts.noSchools}</p>}
      >
        {(list) => <SchoolsTable schools={list} area={area} />}
      </QueryState>
    </PageContainer>
  );
}

export function AdminSchoolsPage() {
  return <SchoolsPage area="admin" />;
}

export function ManagedSchoolsPage() {
  return <SchoolsPage area="school" />;
}
