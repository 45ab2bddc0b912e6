import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Post } from '@district/contracts/content';
import { Alert, Button, ButtonLink, QueryState } from '@/components/ui';
import { DocumentTitle } from '@/components/layout';
import { HOME_POSTS_LIMIT } from '@/config/constants';
import { HomeQueryMessages } from '@/config/messages';
import { useSession } from '@/lib/auth';
import { useSignInDialog } from '@/lib/sign-in-dialog';
import { latestPosts, useLatestPosts } from '../api/public-posts';
import { PostCard, PostCardSkeleton } from './post-card';

/** Reads the `message` query value once, keeps its text on screen, and clears it from the address bar. */
function useHomeNotice(): [string | null, () => void] {
  const [params, setParams] = useSearchParams();
  const key = params.get('message');
  const [notice, setNotice] = useState<string | null>(() =>
    key === null ? null : (HomeQueryMessages[key] ?? null),
  );
  const [seenKey, setSeenKey] = useState(key);

  // Adjusting state while rendering (not in an effect) when a new message arrives on an already-mounted page.
  if (key !== seenKey) {
    setSeenKey(key);
    if (key !== null) setNotice(HomeQueryMessages[key] ?? null);
  }

  useEffect(() => {
    if (key === null) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('message');
        return next;
      },
      { replace: true },
    );
  }, [key, setParams]);

  return [notice, () => setNotice(null)];
}

const highlights = [
  {
    title: 'Lessons from your teachers',
    text: 'Read published lessons, follow along at your own pace, and join the discussion.',
  },
  {
    title: 'Classroom tools',
    text: 'Bingo cards, crosswords, word sorting, the Spanish alphabet and more, ready for class.',
  },
  {
    title: 'A safe community',
    text: 'Every account is approved by a district administrator before it can use profiles and chat.',
  },
];

function LatestLessons({ signedIn }: { signedIn: boolean }) {
  const posts = useLatestPosts(HOME_POSTS_LIMIT);

  return (
    <QueryState
      query={posts}
      loadingView={
        <div
          className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3"
          role="status"
          aria-busy="true"
          aria-label="Loading lessons"
        >
          {Array.from({ length: 3 }, (_, i) => (
            <PostCardSkeleton key={i} />
          ))}
        </div>
      }
      retryLabel="Try again"
      errorView={({ retry }) => (
        <div className="rounded-2xl border border-slate-200 bg-white px-6 py-12 text-center">
          <h3 className="text-lg font-semibold text-slate-900">Lessons are unavailable right now</h3>
          <p className="mt-2 text-slate-600">
            We could not load the latest lessons. Please try again in a moment.
          </p>
          {retry('mt-5')}
        </div>
      )}
    >
      {(data) => <LatestList posts={latestPosts(data, HOME_POSTS_LIMIT)} signedIn={signedIn} />}
    </QueryState>
  );
}

function LatestList({ posts: latest, signedIn }: { posts: Post[]; signedIn: boolean }) {
  if (latest.length === 0) {
    return (
      <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
        <span
          aria-hidden="true"
          className="mx-auto flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700"
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
            <path d="M4 19.5A2.5 2.5 0 0 1 6.5 17H20M4 19.5A2.5 2.5 0 0 0 6.5 22H20V2H6.5A2.5 2.5 0 0 0 4 4.5v15Z" />
          </svg>
        </span>
        <h3 className="mt-4 text-lg font-semibold text-slate-900">No lessons published yet</h3>
        <p className="mt-2 text-slate-600">
          New lessons from your teachers will appear here as soon as they are published.
        </p>
      </div>
    );
  }

  return (
    <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {latest.map((post) => (
        <li key={post.id}>
          <PostCard post={post} signedIn={signedIn} />
        </li>
      ))}
    </ul>
  );
}

export function HomePage() {
  const { user } = useSession();
  const signIn = useSignInDialog();
  const [notice, dismissNotice] = useHomeNotice();

  return (
    <>
      <DocumentTitle />
      {notice ? (
        <div className="mx-auto w-full max-w-7xl px-4 pt-4 sm:px-6 lg:px-8">
          <Alert tone="warning">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <span>{notice}</span>
              <button
                type="button"
                onClick={dismissNotice}
                className="text-sm font-semibold underline underline-offset-2"
              >
                Dismiss
              </button>
            </div>
          </Alert>
        </div>
      ) : null}

      <section className="relative overflow-hidden bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 text-white">
        <div className="mx-auto grid grid-cols-1 max-w-7xl gap-10 px-4 py-16 sm:px-6 sm:py-20 lg:grid-cols-5 lg:px-8">
          <div className="lg:col-span-3">
            <p className="text-sm font-semibold uppercase tracking-widest text-brand-200">
              Teaching and learning, together
            </p>
            <h1 className="mt-3 text-3xl font-extrabold leading-tight tracking-tight sm:text-5xl">
              Lessons and classroom tools for every school in the district
            </h1>
            <p className="mt-5 max-w-2xl text-base text-brand-100 sm:text-lg">
              Teachers publish lessons, students read and discuss them, and everyone gets interactive tools
              that make language learning stick.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <ButtonLink to="/blog" size="lg" variant="secondary">
                Browse Lessons
              </ButtonLink>
              {user ? (
                <ButtonLink to="/educational-tools" size="lg" variant="inverse">
                  Explore Tools
                </ButtonLink>
              ) : (
                <Button size="lg" variant="inverse" onClick={() => signIn.open('signup')}>
                  Create an account
                </Button>
              )}
            </div>
            {user ? (
              <p className="mt-6 text-sm text-brand-100">Welcome back, {user.name || user.username}.</p>
            ) : null}
          </div>
          <ul className="grid grid-cols-1 gap-4 self-center lg:col-span-2">
            {highlights.map((h) => (
              <li key={h.title} className="rounded-2xl bg-white/10 p-5 ring-1 ring-white/15 backdrop-blur-sm">
                <p className="font-semibold">{h.title}</p>
                <p className="mt-1 text-sm text-brand-100">{h.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        aria-labelledby="latest-lessons"
        className="mx-auto w-full max-w-7xl px-4 py-12 sm:px-6 lg:px-8"
      >
        <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2 id="latest-lessons" className="text-2xl font-bold tracking-tight text-slate-900">
              Latest Lessons
            </h2>
            <p className="mt-1 text-slate-600">The newest lessons published by district teachers.</p>
          </div>
          <ButtonLink to="/blog" variant="outline">
            View All Posts
          </ButtonLink>
        </div>
        <LatestLessons signedIn={Boolean(user)} />
      </section>
    </>
  );
}
