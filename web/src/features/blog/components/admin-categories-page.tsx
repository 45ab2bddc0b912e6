import { useState, type FormEvent } from 'react';
import { ContentMessages, slugify, type Category } from '@district/contracts/content';
import {
  Button,
  ButtonLink,
  Card,
  CardBody,
  CardHeader,
  ConfirmDialog,
  QueryState,
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
import { ApiError } from '@/lib/api-client';
import { truncate } from '@/lib/format';
import { useConfirmedAction } from '@/lib/use-confirmed-action';
import { CATEGORY_DESCRIPTION_LENGTH, ContentAdminMessages } from '../blog.constants';
import { useCategories, useDeleteCategory, useSaveCategory } from '../api/categories';

/**
 * Text an admin typed, in a table cell: at most 15rem wide. Tables break words only where one would overflow
 * (index.css), so ordinary words stay whole and only a longer one breaks, at 15rem instead of widening the table.
 */
const USER_TEXT_CELL = 'block max-w-60';

interface FormState {
  id: string | null;
  name: string;
  slug: string;
  description: string;
  /** Once the admin types a slug it stops following the name (spec §5: generated, and editable). */
  slugEdited: boolean;
}

const emptyForm: FormState = { id: null, name: '', slug: '', description: '', slugEdited: false };

/** Spec §8: the server's message if it sent one; 'Failed to fetch categories' for a refusal, else 'Error loading categories'. */
export function categoriesLoadError(err: unknown): string {
  if (err instanceof ApiError && err.fromServer) return err.message;
  return err instanceof ApiError && err.status > 0
    ? ContentAdminMessages.categoriesFetchFailed
    : ContentAdminMessages.categoriesLoadError;
}

function CategoryForm({
  initial,
  onSaved,
  onCancel,
}: {
  initial: FormState;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [form, setForm] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const editing = form.id !== null;
  const save = useToastMutation(useSaveCategory(), {
    success: editing ? ContentAdminMessages.categoryUpdated : ContentAdminMessages.categoryCreated,
    error: ContentMessages.saveCategoryFailed,
    log: 'Saving the category failed',
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const name = form.name.trim();
    if (!name) {
      setError(ContentMessages.categoryNameRequired);
      return;
    }
    setError(undefined);
    const body = { name, slug: slugify(form.slug) || slugify(name), description: form.description.trim() };
    if ((await save.run({ id: form.id, body })).ok) onSaved();
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-label={editing ? 'Edit category' : 'Add category'}
      className="space-y-4"
      noValidate
    >
      <TextField
        label="Name"
        value={form.name}
        maxLength={100}
        error={error}
        required
        onChange={(e) => {
          const name = e.target.value;
          setForm((f) => ({ ...f, name, slug: f.slugEdited ? f.slug : slugify(name) }));
        }}
      />
      <TextField
        label="Slug"
        value={form.slug}
        maxLength={120}
        hint="Made from the name; you can change it."
        onChange={(e) => setForm((f) => ({ ...f, slug: e.target.value, slugEdited: true }))}
      />
      <TextAreaField
        label="Description"
        value={form.description}
        maxLength={1000}
        rows={3}
        onChange={(e) => setForm((f) => ({ ...f, description: e.target.value }))}
      />
      <div className="flex gap-2">
        <Button type="submit" loading={save.isPending}>
          {editing ? 'Update Category' : 'Add Category'}
        </Button>
        {editing ? (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** Category management (spec §2): add/edit form and a table with the description cut to 50 characters. */
export function AdminCategoriesPage() {
  const categories = useCategories();
  const deleteCategory = useToastMutation(useDeleteCategory(), {
    success: ContentAdminMessages.categoryDeleted,
    error: ContentAdminMessages.categoryDeleteFailed,
    log: 'Deleting the category failed',
  });
  const [form, setForm] = useState<FormState>(emptyForm);
  // A new key remounts the form with fresh state whenever an edit starts or a save finishes.
  const [formKey, setFormKey] = useState(0);

  const startEdit = (c: Category) => {
    setForm({ id: c.id, name: c.name, slug: c.slug, description: c.description, slugEdited: true });
    setFormKey((k) => k + 1);
  };
  const resetForm = () => {
    setForm(emptyForm);
    setFormKey((k) => k + 1);
  };

  const remove = useConfirmedAction(async (deleting: Category) => {
    if ((await deleteCategory.run(deleting.id)).ok && form.id === deleting.id) resetForm();
  });
  const deleting = remove.target;

  return (
    <PageContainer>
      <PageHeader
        title="Category Management"
        description="Organise lessons into categories."
        actions={
          <ButtonLink to="/admin" variant="outline">
            Back to Dashboard
          </ButtonLink>
        }
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="self-start">
          <CardHeader title={form.id ? 'Edit Category' : 'Add Category'} />
          <CardBody>
            <CategoryForm key={formKey} initial={form} onSaved={resetForm} onCancel={resetForm} />
          </CardBody>
        </Card>
        <div className="lg:col-span-2">
          <QueryState
            query={categories}
            loading="Loading categories…"
            errorText={categoriesLoadError}
            retryLabel="Try again"
          >
            {(list) => (
              <Table caption="Categories">
                <TableHead>
                  <tr>
                    <TableHeaderCell>Name</TableHeaderCell>
                    <TableHeaderCell>Slug</TableHeaderCell>
                    <TableHeaderCell>Description</TableHeaderCell>
                    <TableHeaderCell>Posts</TableHeaderCell>
                    <TableHeaderCell className="text-right">Actions</TableHeaderCell>
                  </tr>
                </TableHead>
                <TableBody>
                  {list.length === 0 ? (
                    <TableEmpty colSpan={5}>No categories yet.</TableEmpty>
                  ) : (
                    list.map((c) => (
                      <TableRow key={c.id}>
                        {/* Capped: one long name must not push Actions far off a phone's screen. */}
                        <TableCell className="font-medium text-slate-900">
                          <span className={USER_TEXT_CELL}>{c.name}</span>
                        </TableCell>
                        <TableCell className="font-mono text-xs">
                          <span className={USER_TEXT_CELL}>{c.slug}</span>
                        </TableCell>
                        <TableCell title={c.description || undefined}>
                          <span className={USER_TEXT_CELL}>
                            {truncate(c.description, CATEGORY_DESCRIPTION_LENGTH)}
                          </span>
                        </TableCell>
                        <TableCell>{c.postCount}</TableCell>
                        <TableCell className="text-right">
                          <div className="inline-flex gap-2">
                            <Button
                              size="sm"
                              variant="outline"
                              aria-label={`Edit ${c.name}`}
                              onClick={() => startEdit(c)}
                            >
                              Edit
                            </Button>
                            <Button
                              size="sm"
                              variant="danger"
                              aria-label={`Delete ${c.name}`}
                              onClick={() => remove.ask(c)}
                            >
                              Delete
                            </Button>
                          </div>
                        </TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            )}
          </QueryState>
        </div>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete category"
        message={
          deleting
            ? `Are you sure you want to delete the category "${deleting.name}"? Its posts stay, without a category.`
            : ''
        }
        confirmLabel="Delete"
        busy={remove.busy}
        onConfirm={() => void remove.confirm()}
        onCancel={remove.cancel}
      />
    </PageContainer>
  );
}
