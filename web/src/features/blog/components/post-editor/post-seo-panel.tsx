import { Card, CardBody, CardHeader, TextAreaField, TextField } from '@/components/ui';
import type { PostDraft, SetDraftField } from '../../hooks/use-post-draft';
import { analyzeSeo, parseKeywords } from '../seo-analysis';

/** The post's SEO fields, with the spec's analysis updated as they are typed. */
export function PostSeoPanel({ draft, set }: { draft: PostDraft; set: SetDraftField }) {
  const seo = analyzeSeo({
    seoTitle: draft.seoTitle,
    metaDescription: draft.metaDescription,
    focusKeyword: draft.focusKeyword,
    metaKeywords: parseKeywords(draft.metaKeywords),
  });
  return (
    <Card>
      <CardHeader title="SEO" as="h2" />
      <CardBody className="space-y-4">
        <TextField
          label="SEO title"
          value={draft.seoTitle}
          maxLength={200}
          onChange={(e) => set('seoTitle', e.target.value)}
        />
        <TextAreaField
          label="Meta description"
          rows={3}
          maxLength={500}
          value={draft.metaDescription}
          onChange={(e) => set('metaDescription', e.target.value)}
        />
        <TextField
          label="Focus keyword"
          value={draft.focusKeyword}
          maxLength={100}
          onChange={(e) => set('focusKeyword', e.target.value)}
        />
        <TextField
          label="Meta keywords"
          value={draft.metaKeywords}
          hint="Comma separated"
          onChange={(e) => set('metaKeywords', e.target.value)}
        />
        <ul aria-label="SEO analysis" className="space-y-1 text-sm">
          {seo.map((c) => (
            <li key={c.id} className={c.ok ? 'text-emerald-700' : 'text-amber-800'}>
              <span aria-hidden="true">{c.ok ? '✓ ' : '✗ '}</span>
              <span className="sr-only">{c.ok ? 'Passed: ' : 'Needs work: '}</span>
              {c.label} — {c.detail}
            </li>
          ))}
        </ul>
      </CardBody>
    </Card>
  );
}
