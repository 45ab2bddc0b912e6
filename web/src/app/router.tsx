import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { AssessmentMessages } from '@district/contracts/assessment';
import {
  CodeEvolutionPage,
  CrosswordPage,
  loadToolsHubPage,
  NumberBingoPage,
  SpanishAlphabetPage,
  ToolsHubPage,
  WordBingoPage,
  WordSorterPage,
} from '@/features/tools';
// Home is the most visited public page: its code (about 5 KB gzipped) ships with the entry, so its first paint
// waits for no second round trip (issue #15, ADR 0023). Every other route is its own chunk.
import { HomePage } from '@/features/blog/components/home-page';
import { AppShell } from './app-shell';
import { Guard, type GuardLevel } from './guards';
import { DataRouteErrorPage } from './routes/route-error';

type LazyPage = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/**
 * React.lazy for a named export, so every route is its own chunk, with `preload` to fetch that chunk early: the
 * app starts loading the opened page's code while it asks who is signed in (preloadRouteCode). When the code is
 * already here at the first render, the page renders at once instead of suspending for a frame, so the route's
 * loading spinner never flashes and pushes the footer (a layout shift, issue #15).
 */
function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): LazyPage {
  let loaded: { default: ComponentType } | undefined;
  let loading: Promise<{ default: ComponentType }> | undefined;
  const preload = () =>
    (loading ??= load().then((m) => {
      loaded = { default: m[name] as ComponentType };
      return loaded;
    }));
  const page = lazy(() => {
    const ready = loaded;
    // React reads a thenable's result synchronously when `then` calls back at once: no suspension.
    if (ready)
      return { then: (resolve: (value: typeof ready) => void) => resolve(ready) } as unknown as Promise<
        typeof ready
      >;
    return preload();
  });
  return Object.assign(page, { preload });
}

const BlogListPage = lazyNamed(() => import('@/features/blog/components/blog-list-page'), 'BlogListPage');
const PostPage = lazyNamed(() => import('@/features/blog/components/post-page'), 'PostPage');
/** The profile with the grades feature's 'My Quiz Results' (its audio review uses the shared player, components/audio). */
const ProfilePage = lazy(async () => {
  const [profile, grades] = await Promise.all([
    import('@/features/profile/components/profile-page'),
    import('@/features/grades/components/my-quiz-results'),
  ]);
  return { default: () => <profile.ProfilePage quizResults={<grades.MyQuizResults />} /> };
});
const AdminPostsPage = lazyNamed(
  () => import('@/features/blog/components/admin-posts-page'),
  'AdminPostsPage',
);
const AdminCategoriesPage = lazyNamed(
  () => import('@/features/blog/components/admin-categories-page'),
  'AdminCategoriesPage',
);
const AdminCommentsPage = lazyNamed(
  () => import('@/features/blog/components/admin-comments-page'),
  'AdminCommentsPage',
);
const PostEditorPage = lazyNamed(
  () => import('@/features/blog/components/post-editor/post-editor-page'),
  'PostEditorPage',
);
const AdminSeoPage = lazyNamed(() => import('@/features/blog/components/admin-seo-page'), 'AdminSeoPage');
const AdminUsersPage = lazyNamed(
  () => import('@/features/accounts/components/admin-users-page'),
  'AdminUsersPage',
);
const AdminChatroomsPage = lazyNamed(
  () => import('@/features/chat/components/admin-chatrooms-page'),
  'AdminChatroomsPage',
);
const ChatPage = lazyNamed(() => import('@/features/chat/components/chat-page'), 'ChatPage');
// The district's screens (issue #36): schools, classes and the roster import, each its own chunk.
const RosterImportPage = lazyNamed(
  () => import('@/features/district/components/roster-import-page'),
  'RosterImportPage',
);
const AdminSchoolsPage = lazyNamed(
  () => import('@/features/district/components/schools-page'),
  'AdminSchoolsPage',
);
const ManagedSchoolsPage = lazyNamed(
  () => import('@/features/district/components/schools-page'),
  'ManagedSchoolsPage',
);
const ClassesPage = lazyNamed(() => import('@/features/district/components/classes-page'), 'ClassesPage');
const MyClassesPage = lazyNamed(
  () => import('@/features/district/components/my-classes-page'),
  'MyClassesPage',
);
const ClassPage = lazyNamed(() => import('@/features/district/components/class-page'), 'ClassPage');
/** The audio quizzes screen with the grades feature's student grades table for teachers and admins (spec §2). */
const AudioQuizzesPage = lazy(async () => {
  const [quizzes, grades] = await Promise.all([
    import('@/features/quizzes/components/quizzes-page'),
    import('@/features/grades/components/quiz-grades-section'),
  ]);
  return {
    default: () => <quizzes.AudioQuizzesPage gradesPanel={<grades.QuizGradesSection kind="audio" />} />,
  };
});
const AudioQuizGradesDashboardPage = lazyNamed(
  () => import('@/features/grades/components/grades-dashboard-page'),
  'AudioQuizGradesDashboardPage',
);
const TextQuizGradesDashboardPage = lazyNamed(
  () => import('@/features/grades/components/grades-dashboard-page'),
  'TextQuizGradesDashboardPage',
);
const TextQuizzesPage = lazyNamed(
  () => import('@/features/quizzes/components/quizzes-page'),
  'TextQuizzesPage',
);
const AdminDashboardPage = lazyNamed(() => import('./routes/admin-dashboard-page'), 'AdminDashboardPage');
const NotFoundPage = lazyNamed(() => import('./routes/not-found'), 'NotFoundPage');
const AudioListsPage = lazyNamed(
  () => import('@/features/classroom/audio-lists/audio-lists-page'),
  'AudioListsPage',
);
/** The classroom's sound demo lists the tools feature's alphabet recordings; features never import each other, so the app hands them over. */
const SoundDemoPage = lazy(async () => {
  const [demo, letters] = await Promise.all([
    import('@/features/classroom/sound-demo/sound-demo-page'),
    import('@/features/tools/spanish-alphabet/spanish-letters'),
  ]);
  const alphabet = letters.SPANISH_LETTERS.map((l) => ({
    letter: l.letter,
    src: letters.letterAudioUrl(l.letter),
  }));
  return { default: () => <demo.SoundDemoPage alphabet={alphabet} /> };
});
const LessonPlansPage = lazyNamed(
  () => import('@/features/classroom/lesson-plans/lesson-plans-page'),
  'LessonPlansPage',
);
const GoogleSlidesPage = lazyNamed(
  () => import('@/features/classroom/google-slides/google-slides-page'),
  'GoogleSlidesPage',
);

function guarded(level: GuardLevel | null, element: ReactNode): ReactNode {
  return level ? <Guard level={level}>{element}</Guard> : element;
}

/** The grade dashboards' guard: approved teachers and admins; anyone else gets the spec's 'Access Denied: …'. */
const staffOnly = (element: ReactNode) => (
  <Guard level="staff" deniedMessage={AssessmentMessages.dashboardAccessDenied}>
    {element}
  </Guard>
);

/**
 * The route table of spec section 2, in the spec's order (the last entry is the fallback). React Router
 * ranks by specificity, which for this table gives the same result as first-match.
 */
export const appRoutes: RouteObject[] = [
  { path: '/admin/posts/new', element: guarded('admin', <PostEditorPage />) },
  { path: '/admin/posts/edit/:id', element: guarded('admin', <PostEditorPage />) },
  { path: '/admin/posts', element: guarded('admin', <AdminPostsPage />) },
  { path: '/admin/users', element: guarded('admin', <AdminUsersPage />) },
  { path: '/admin/comments', element: guarded('admin', <AdminCommentsPage />) },
  { path: '/admin/categories', element: guarded('admin', <AdminCategoriesPage />) },
  { path: '/admin/seo', element: guarded('admin', <AdminSeoPage />) },
  { path: '/admin/chatrooms', element: guarded('admin', <AdminChatroomsPage />) },
  // The district (issue #36): the district administrator's under /admin; a school administrator's at /schools, and
  // everyone's own classes at /classes (the server answers only what the caller may see).
  { path: '/admin/schools', element: guarded('admin', <AdminSchoolsPage />) },
  { path: '/admin/classes', element: guarded('admin', <ClassesPage />) },
  { path: '/admin/roster', element: guarded('admin', <RosterImportPage />) },
  { path: '/schools', element: guarded('approved', <ManagedSchoolsPage />) },
  { path: '/schools/classes', element: guarded('approved', <ClassesPage />) },
  { path: '/classes/:id', element: guarded('approved', <ClassPage />) },
  { path: '/classes', element: guarded('approved', <MyClassesPage />) },
  // Teachers and admins (classroom-tools §6), though under /admin.
  { path: '/admin/quiz-grades-dashboard', element: staffOnly(<AudioQuizGradesDashboardPage />) },
  { path: '/admin/text-quiz-grades-dashboard', element: staffOnly(<TextQuizGradesDashboardPage />) },
  { path: '/admin', element: guarded('admin', <AdminDashboardPage />) },
  { path: '/blog/:slug', element: guarded('login', <PostPage />) },
  { path: '/blog', element: <BlogListPage /> },
  { path: '/educational-tools', element: guarded('login', <ToolsHubPage />) },
  { path: '/bingo-generator', element: <NumberBingoPage /> },
  { path: '/word-bingo', element: <WordBingoPage /> },
  { path: '/spanish-alphabet', element: <SpanishAlphabetPage /> },
  { path: '/word-sorter', element: <WordSorterPage /> },
  { path: '/code-evolution', element: <CodeEvolutionPage /> },
  { path: '/crossword-generator', element: <CrosswordPage /> },
  { path: '/listen-to-type', element: guarded('login', <ChatPage />) },
  { path: '/audio-quizzes', element: guarded('login', <AudioQuizzesPage />) },
  { path: '/text-quizzes', element: guarded('login', <TextQuizzesPage />) },
  { path: '/audio-lists', element: guarded('login', <AudioListsPage />) },
  { path: '/lesson-plans', element: guarded('login', <LessonPlansPage />) },
  { path: '/google-slides', element: guarded('login', <GoogleSlidesPage />) },
  { path: '/profile', element: guarded('approved', <ProfilePage />) },
  // Linked from the admin dashboard but absent from the spec's guard table, so it stays unguarded like the other demos.
  { path: '/sound-demo', element: <SoundDemoPage /> },
  { path: '/', element: <HomePage /> },
  { path: '*', element: <NotFoundPage /> },
];

/** The pages whose code is worth fetching while the session is checked: the public pages, the hub, the quiz screen. */
const ROUTE_CODE: Readonly<Record<string, () => Promise<unknown>>> = {
  '/blog': BlogListPage.preload,
  '/blog/:slug': PostPage.preload,
  '/educational-tools': loadToolsHubPage,
  '/text-quizzes': TextQuizzesPage.preload,
};

/** Starts loading the code of the page at `pathname` (the first page of a visit), if it is one of ROUTE_CODE's. */
export function preloadRouteCode(pathname: string): void {
  const path = matchRoutes(appRoutes, pathname)?.at(-1)?.route.path;
  const preload = path === undefined ? undefined : ROUTE_CODE[path];
  // A failed load shows when the page renders (the route error page); here it must not count as unhandled.
  preload?.().catch(() => undefined);
}

export const routes: RouteObject[] = [
  { element: <AppShell />, errorElement: <DataRouteErrorPage />, children: appRoutes },
];
