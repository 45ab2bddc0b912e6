import { QueryState } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { useMyClasses } from '@/lib/roster';
import { DistrictTexts } from '../district.constants';
import { ClassesTable } from './classes-page';

/** /classes — the classes a teacher teaches or a student is enrolled in, each linking to its roster. */
export function MyClassesPage() {
  const classes = useMyClasses();
  return (
    <PageContainer>
      <PageHeader title={DistrictTexts.myClassesTitle} description={DistrictTexts.myClassesDescription} />
      <QueryState
        query={classes}
        loading="Loading your classes…"
        errorTitle={DistrictTexts.classesLoadFailed}
        errorText="Please try again in a moment."
        retryLabel="Try again"
        empty={<p className="py-10 text-center text-slate-500">{DistrictTexts.noMyClasses}</p>}
      >
        {(list) => <ClassesTable classes={list} caption={DistrictTexts.myClassesTitle} empty="" showSchool />}
      </QueryState>
    </PageContainer>
  );
}
