import { ButtonLink } from '@/components/ui';
import { DocumentTitle, PageContainer } from '@/components/layout';

export interface ComingSoonProps {
  /** The screen's name, e.g. 'Post Management'. */
  title: string;
  description: string;
  backTo: string;
  backLabel: string;
}

/** A real page for a route whose screen ships in a later release, so the route never renders blank. */
export function ComingSoonPage({ title, description, backTo, backLabel }: ComingSoonProps) {
  return (
    <PageContainer className="flex flex-1 items-center justify-center">
      <DocumentTitle title={title} />
      <section aria-labelledby="coming-soon-title" className="w-full max-w-xl rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm sm:p-10">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
            <path d="M12 6v6l4 2" />
            <circle cx="12" cy="12" r="9" />
          </svg>
        </span>
        <p className="mt-4 text-xs font-semibold uppercase tracking-widest text-brand-700">Coming soon</p>
        <h1 id="coming-soon-title" className="mt-1 text-2xl font-bold text-slate-900 sm:text-3xl">
          {title}
        </h1>
        <p className="mt-3 text-slate-600">{description}</p>
        <div className="mt-6">
          <ButtonLink to={backTo} variant="outline">
            {backLabel}
          </ButtonLink>
        </div>
      </section>
    </PageContainer>
  );
}

/** The screens still to come, keyed by route, each with the spec's name for it. */
export const comingSoonScreens = {
  audioLists: { title: 'Audio Lists', description: 'Shared lists of audio files for practice are coming soon.', backTo: '/educational-tools', backLabel: 'Back to Tools' },
  lessonPlans: { title: 'Lesson Plans', description: 'A five-phase lesson plan builder for teachers is coming soon.', backTo: '/educational-tools', backLabel: 'Back to Tools' },
  googleSlides: { title: 'Google Slides', description: 'A library of presentations to share with your classes is coming soon.', backTo: '/educational-tools', backLabel: 'Back to Tools' },
  soundDemo: { title: 'Sound Demo', description: 'The sound demo is coming soon.', backTo: '/admin', backLabel: 'Back to Admin Dashboard' },
  quizGrades: { title: 'Quiz Grades Dashboard', description: 'Audio quiz results and statistics are coming soon.', backTo: '/admin', backLabel: 'Back to Admin Dashboard' },
  textQuizGrades: { title: 'Text Quiz Grades Dashboard', description: 'Text quiz results and statistics are coming soon.', backTo: '/admin', backLabel: 'Back to Admin Dashboard' },
} satisfies Record<string, ComingSoonProps>;

export type ComingSoonScreenKey = keyof typeof comingSoonScreens;

/** Route element for a screen still to come, chosen by key. */
export function ComingSoonScreen({ screen }: { screen: ComingSoonScreenKey }) {
  return <ComingSoonPage {...comingSoonScreens[screen]} />;
}
