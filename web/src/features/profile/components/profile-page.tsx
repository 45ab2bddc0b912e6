import type { ReactNode } from 'react';
import { Badge, Card, CardBody } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { useSession } from '@/lib/auth';
import { formatFullDate } from '@/lib/format';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="py-3 sm:grid sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="mt-1 text-sm text-slate-900 sm:col-span-2 sm:mt-0">{children}</dd>
    </div>
  );
}

const roleLabel = { student: 'Student', teacher: 'Teacher' } as const;

/**
 * Profile (classroom-tools spec section 2). The route guard guarantees a signed-in, approved user. 'My Quiz Results'
 * belongs to the grades feature; the app composes it in as `quizResults` (features do not import each other).
 */
export function ProfilePage({ quizResults }: { quizResults?: ReactNode }) {
  const { user } = useSession();
  if (!user) return null;
  return (
    <PageContainer className="max-w-4xl">
      <PageHeader title="My Profile" description="Your account details." />
      <Card>
        <div className="flex items-center gap-4 border-b border-slate-100 px-5 py-5">
          {user.profileImage ? (
            <img src={user.profileImage} alt="" className="size-16 rounded-full object-cover" />
          ) : (
            <span
              aria-hidden="true"
              className="flex size-16 items-center justify-center rounded-full bg-brand-100 text-2xl font-bold text-brand-800"
            >
              {(user.name || user.username).slice(0, 1).toUpperCase()}
            </span>
          )}
          <div className="min-w-0">
            <p className="truncate text-xl font-semibold text-slate-900">{user.name}</p>
            <p className="truncate text-sm text-slate-500">@{user.username}</p>
          </div>
        </div>
        <CardBody>
          <dl className="divide-y divide-slate-100">
            <Field label="Name">{user.name}</Field>
            <Field label="Username">{user.username}</Field>
            <Field label="Email">{user.email}</Field>
            <Field label="Account Status">
              {user.approved ? (
                <Badge tone="success">Approved</Badge>
              ) : (
                <Badge tone="warning">Pending Approval</Badge>
              )}
            </Field>
            <Field label="Role">
              <span className="inline-flex flex-wrap items-center gap-2">
                {roleLabel[user.role]}
                {user.isAdmin ? <Badge tone="purple">Administrator</Badge> : null}
              </span>
            </Field>
            <Field label="Member Since">
              <time dateTime={user.createdAt}>{formatFullDate(user.createdAt)}</time>
            </Field>
          </dl>
        </CardBody>
      </Card>
      {quizResults}
    </PageContainer>
  );
}
