import type { PostStatus } from '@district/contracts/content';
import { Card, CardBody, CardHeader, SelectField, TextField } from '@/components/ui';
import { useCategories } from '../../api/categories';
import type { PostDraft, SetDraftField } from '../../hooks/use-post-draft';
import { FeaturedImageField } from './featured-image-field';

/** Status, category, slug, tags and the featured image. */
export function PostSettingsPanel({ draft, set }: { draft: PostDraft; set: SetDraftField }) {
  const categories = useCategories();
  return (
    <Card>
      <CardHeader title="Settings" as="h2" />
      <CardBody className="space-y-4">
        <SelectField
          label="Status"
          value={draft.status}
          onChange={(e) => set('status', e.target.value as PostStatus)}
        >
          <option value="draft">Draft</option>
          <option value="published">Published</option>
        </SelectField>
        <SelectField
          label="Category"
          value={draft.categoryId}
          onChange={(e) => set('categoryId', e.target.value)}
        >
          <option value="">No category</option>
          {(categories.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Slug"
          value={draft.slug}
          maxLength={120}
          hint="Made from the title when left empty."
          onChange={(e) => set('slug', e.target.value)}
        />
        <TextField
          label="Tags"
          value={draft.tags}
          hint="Comma separated"
          onChange={(e) => set('tags', e.target.value)}
        />
        <FeaturedImageField value={draft.featuredImage} onChange={(url) => set('featuredImage', url)} />
      </CardBody>
    </Card>
  );
}
