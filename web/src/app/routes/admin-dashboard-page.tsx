import { Link } from 'react-router';
import { Alert, ButtonLink } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { useSession } from '@/lib/auth';
import { useUserCounts } from '@/features/accounts/api/users';

interface DashboardCard {
  to: string;
  title: string;
  text: string;
  icon: string;
}

/**
 * Spec section 2: posts, new post, categories, users, comments, SEO, chatrooms, both grade dashboards, sound demo,
 * tools; and the district's schools and roster import (issue #36).
 */
export const dashboardCards: DashboardCard[] = [
  {
    to: '/admin/posts',
    title: 'Manage Posts',
    text: 'Edit, publish, unpublish and delete lessons.',
    icon: 'M4 4h16v16H4zM8 8h8M8 12h8M8 16h5',
  },
  {
    to: '/admin/posts/new',
    title: 'New Post',
    text: 'Write and publish a new lesson.',
    icon: 'M12 5v14M5 12h14',
  },
  {
    to: '/admin/categories',
    title: 'Categories',
    text: 'Organise lessons into categories.',
    icon: 'M4 6h6v6H4zM14 6h6v6h-6zM4 16h6v4H4zM14 16h6v4h-6z',
  },
  {
    to: '/admin/users',
    title: 'Users',
    text: 'Approve accounts, set roles and administrators.',
    icon: 'M16 19v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1M9.5 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6M21 19v-1a4 4 0 0 0-3-3.9M16 4.1a3 3 0 0 1 0 5.8',
  },
  {
    to: '/admin/comments',
    title: 'Comments',
    text: 'Moderate comments and replies.',
    icon: 'M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.4A8 8 0 1 1 21 12z',
  },
  {
    to: '/admin/seo',
    title: 'SEO',
    text: 'Site settings, sitemap and per-post analysis.',
    icon: 'M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16zM21 21l-4.3-4.3',
  },
  {
    to: '/admin/chatrooms',
    title: 'Chatrooms',
    text: 'Create chatrooms and invite students.',
    icon: 'M7 8h10M7 12h6M5 4h14a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-4 3v-3a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z',
  },
  {
    to: '/admin/schools',
    title: 'Schools',
    text: "The district's schools and their classes.",
    icon: 'M3 21h18M5 21V9l7-5 7 5v12M9 21v-6h6v6M10 10h4',
  },
  {
    to: '/admin/roster',
    title: 'Roster Import',
    text: 'Upload the OneRoster zip from the student information system.',
    icon: 'M12 3v12M7 8l5-5 5 5M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2',
  },
  {
    to: '/admin/quiz-grades-dashboard',
    title: 'Quiz Grades',
    text: 'Audio quiz results and pass rates.',
    icon: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
  },
  {
    to: '/admin/text-quiz-grades-dashboard',
    title: 'Text Quiz Grades',
    text: 'Text quiz results and pass rates.',
    icon: 'M4 4h12l4 4v12H4zM8 12h8M8 16h5',
  },
  {
    to: '/sound-demo',
    title: 'Sound Demo',
    text: 'Preview the sounds used in the tools.',
    icon: 'M11 5 6 9H2v6h4l5 4V5zM15.5 8.5a5 5 0 0 1 0 7M19 5a10 10 0 0 1 0 14',
  },
  {
    to: '/educational-tools',
    title: 'Educational Tools',
    text: 'Open the classroom tools hub.',
    icon: 'M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.8-3.8a6 6 0 0 1-7.9 7.9l-6.9 6.9a2.1 2.1 0 0 1-3-3l6.9-6.9a6 6 0 0 1 7.9-7.9l-3.8 3.8z',
  },
];

function PendingSummary() {
  const counts = useUserCounts();
  if (counts.isPending)
    return <p className="text-sm text-slate-500">Checking for accounts awaiting approval…</p>;
  if (counts.isError && !counts.data) return null;
  const { pending, total } = counts.data;
  return (
    <div className="mb-8 grid grid-cols-1 gap-4 sm:grid-cols-3">
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <p className="text-sm font-medium text-slate-600">Pending approval</p>
        <p className="mt-1 text-3xl font-bold text-slate-900" data-testid="pending-count">
          {pending}
        </p>
      </div>
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <p className="text-sm font-medium text-slate-600">Total accounts</p>
        <p className="mt-1 text-3xl font-bold text-slate-900">{total}</p>
      </div>
      <div className="flex items-center rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        {pending > 0 ? (
          <Alert tone="warning" className="w-full">
            <p>
              {pending === 1 ? '1 account is' : `${pending} accounts are`} waiting for approval.{' '}
              <Link to="/admin/users" className="font-semibold underline underline-offset-2">
                Review users
              </Link>
            </p>
          </Alert>
        ) : (
          <p className="text-sm text-slate-600">No accounts are waiting for approval.</p>
        )}
      </div>
    </div>
  );
}

/**
 * The admin home (spec §2). It sits in app/ because it links and summarises every area (users now; the
 * assessment feature's grade dashboards later), and only the app composes several features.
 */
export function AdminDashboardPage() {
  const { user } = useSession();
  return (
    <PageContainer>
      <PageHeader
        title="Admin Dashboard"
        description={`Welcome, ${user?.name ?? 'administrator'}. Manage the site's lessons, people and tools.`}
        actions={<ButtonLink to="/admin/posts/new">New Post</ButtonLink>}
      />
      <PendingSummary />
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {dashboardCards.map((card) => (
          <li key={card.to}>
            <Link
              to={card.to}
              className="group flex h-full items-start gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-300 hover:shadow-md"
            >
              <span
                aria-hidden="true"
                className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 group-hover:bg-brand-100"
              >
                <svg
                  viewBox="0 0 24 24"
                  className="size-6"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                >
                  <path d={card.icon} />
                </svg>
              </span>
              <span>
                <span className="block font-semibold text-slate-900">{card.title}</span>
                <span className="mt-1 block text-sm text-slate-600">{card.text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </PageContainer>
  );
}
