import { useState, type FormEvent } from 'react';
import { ContentMessages, seoSettingsSchema, type Post, type SeoSettings } from '@district/contracts/content';
import {
  Alert,
  Badge,
  Button,
  ButtonLink,
  Card,
  CardBody,
  CardHeader,
  QueryState,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableEmpty,
  TableHead,
  TableHeaderCell,
  TableRow,
  TextAreaField,
  TextField,
  useToastMutation,
} from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { formatFullDate } from '@/lib/format';
import { useAllPosts } from '../api/posts';
import { useGenerateSitemap, useSaveSeoSettings, useSeoSettings } from '../api/seo';
import { analyzeSeo } from './seo-analysis';

type Form = Omit<SeoSettings, 'defaultMetaKeywords'> & { defaultMetaKeywords: string };

function SettingsForm({ settings }: { settings: SeoSettings }) {
  const save = useToastMutation(useSaveSeoSettings(), {
    success: 'SEO settings saved successfully',
    // Spec §8 names one text for this failure, whatever the server said.
    error: () => ContentMessages.saveSeoFailed,
    log: 'Saving the SEO settings failed',
  });
  const [form, setForm] = useState<Form>({
    ...settings,
    defaultMetaKeywords: settings.defaultMetaKeywords.join(', '),
  });
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The contract's schema splits the comma-separated keywords (trimmed, empties dropped) and checks the IDs.
    const parsed = seoSettingsSchema.safeParse(form);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? ContentMessages.saveSeoFailed);
      return;
    }
    setError(null);
    const outcome = await save.run(parsed.data);
    if (outcome.ok) {
      const saved = outcome.data;
      setForm({ ...saved, defaultMetaKeywords: saved.defaultMetaKeywords.join(', ') });
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Site settings" className="space-y-4" noValidate>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <TextField
        label="Site name"
        value={form.siteName}
        maxLength={120}
        onChange={(e) => set('siteName', e.target.value)}
      />
      <TextAreaField
        label="Site description"
        rows={2}
        maxLength={500}
        value={form.siteDescription}
        onChange={(e) => set('siteDescription', e.target.value)}
      />
      <TextField
        label="Default meta keywords"
        hint="Comma separated"
        value={form.defaultMetaKeywords}
        onChange={(e) => set('defaultMetaKeywords', e.target.value)}
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Google Analytics ID"
          value={form.googleAnalyticsId}
          maxLength={40}
          onChange={(e) => set('googleAnalyticsId', e.target.value)}
        />
        <TextField
          label="Google Search Console ID"
          value={form.googleSearchConsoleId}
          maxLength={200}
          onChange={(e) => set('googleSearchConsoleId', e.target.value)}
        />
      </div>
      <TextAreaField
        label="robots.txt"
        rows={5}
        maxLength={10_000}
        value={form.robotsTxt}
        placeholder="Empty: allow all, disallow /admin and /api/, with the sitemap line"
        onChange={(e) => set('robotsTxt', e.target.value)}
        controlClassName="font-mono"
      />
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={form.sitemapEnabled}
          onChange={(e) => set('sitemapEnabled', e.target.checked)}
          className="size-4"
        />
        Sitemap enabled
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={form.commentModeration}
          onChange={(e) => set('commentModeration', e.target.checked)}
          className="size-4"
        />
        Students&apos; comments wait for approval
      </label>
      <Button type="submit" loading={save.isPending}>
        Save Settings
      </Button>
    </form>
  );
}

function SitemapCard() {
  const generate = useToastMutation(useGenerateSitemap(), {
    success: (result) => `Sitemap generated with ${result.urlCount} URLs`,
    error: () => ContentMessages.generateSitemapFailed,
    log: 'Generating the sitemap failed',
  });
  // Kept apart from the mutation's data so a failed run leaves the last result on screen.
  const [last, setLast] = useState<{ url: string; urlCount: number; generatedAt: string } | null>(null);
  const run = async () => {
    const outcome = await generate.run();
    if (outcome.ok) setLast(outcome.data);
  };
  return (
    <Card>
      <CardHeader title="Sitemap" as="h2" />
      <CardBody className="space-y-3 text-sm text-slate-700">
        <p>The sitemap lists the home page, the lesson list and every published lesson.</p>
        <Button onClick={() => void run()} loading={generate.isPending}>
          Generate Sitemap
        </Button>
        {last ? (
          <p role="status">
            {last.urlCount} URLs, {formatFullDate(last.generatedAt)}:{' '}
            {/^(https?:\/\/|\/(?!\/))/i.test(last.url) ? (
              <a
                href={last.url}
                className="font-medium text-brand-700 underline"
                target="_blank"
                rel="noreferrer"
              >
                {last.url}
              </a>
            ) : (
              last.url
            )}
          </p>
        ) : null}
      </CardBody>
    </Card>
  );
}

function PostAnalysis() {
  const posts = useAllPosts();
  return (
    <QueryState
      query={posts}
      loadingView={<Spinner label="Loading posts…" />}
      errorText={() => 'The posts could not be loaded. Please try again in a moment.'}
      retryLabel="Try again"
    >
      {(list) => <PostAnalysisTable posts={list} />}
    </QueryState>
  );
}

function PostAnalysisTable({ posts }: { posts: Post[] }) {
  return (
    <Table caption="SEO analysis per post">
      <TableHead>
        <tr>
          <TableHeaderCell>Post</TableHeaderCell>
          <TableHeaderCell>Score</TableHeaderCell>
          <TableHeaderCell>To improve</TableHeaderCell>
          <TableHeaderCell className="text-right">Actions</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {posts.length === 0 ? (
          <TableEmpty colSpan={4}>No posts yet.</TableEmpty>
        ) : (
          posts.map((p) => {
            const checks = analyzeSeo(p);
            const passed = checks.filter((c) => c.ok).length;
            const failing = checks.filter((c) => !c.ok);
            return (
              <TableRow key={p.id}>
                <TableCell className="font-medium text-slate-900">{p.title}</TableCell>
                <TableCell>
                  <Badge tone={passed === checks.length ? 'success' : passed >= 2 ? 'warning' : 'danger'}>
                    {passed}/{checks.length}
                  </Badge>
                </TableCell>
                <TableCell>
                  {failing.length === 0 ? (
                    'All checks pass'
                  ) : (
                    <ul className="space-y-0.5">
                      {failing.map((c) => (
                        <li key={c.id}>
                          {c.label} — {c.detail}
                        </li>
                      ))}
                    </ul>
                  )}
                </TableCell>
                <TableCell className="text-right">
                  <ButtonLink
                    to={`/admin/posts/edit/${encodeURIComponent(p.id)}`}
                    size="sm"
                    variant="outline"
                    aria-label={`Edit ${p.title}`}
                  >
                    Edit
                  </ButtonLink>
                </TableCell>
              </TableRow>
            );
          })
        )}
      </TableBody>
    </Table>
  );
}

/** SEO management (spec §2): site settings, sitemap generation and the per-post analysis. */
export function AdminSeoPage() {
  const settings = useSeoSettings();
  return (
    <PageContainer>
      <PageHeader
        title="SEO Management"
        description="Site settings for search engines, the sitemap, and how each post scores."
        actions={
          <ButtonLink to="/admin" variant="outline">
            Back to Dashboard
          </ButtonLink>
        }
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader title="Site Settings" as="h2" />
          <CardBody>
            <QueryState
              query={settings}
              loadingView={<Spinner label="Loading settings…" />}
              errorText={() => 'The settings could not be loaded. Please try again in a moment.'}
              retryLabel="Try again"
            >
              {(current) => <SettingsForm settings={current} />}
            </QueryState>
          </CardBody>
        </Card>
        <div className="self-start">
          <SitemapCard />
        </div>
      </div>
      <section aria-labelledby="post-analysis" className="mt-8">
        <h2 id="post-analysis" className="mb-3 text-xl font-bold text-slate-900">
          Post Analysis
        </h2>
        <PostAnalysis />
      </section>
    </PageContainer>
  );
}
