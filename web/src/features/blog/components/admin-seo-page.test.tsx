import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ContentMessages, DEFAULT_SEO_SETTINGS, type Post } from '@district/contracts/content';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { makePost } from '@/testing/content-fixtures';

// Whole-app renders with lazy routes are slow on a busy 2-core runner; allow for it rather than flake.
configure({ asyncUtilTimeout: 4000 });

function setup(posts: Post[] = []) {
  return (f: FetchStub) => {
    f.on('GET', '/api/seo/settings', { json: DEFAULT_SEO_SETTINGS });
    f.on('GET', '/api/posts', { json: posts });
  };
}

describe('SEO management (spec sections 2, 5 and 8)', { timeout: 20_000 }, () => {
  it('is for admins only', async () => {
    await renderApp('/admin/seo', { user: personas.student() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Access Denied' })).toBeInTheDocument();
  });

  it('saves the site settings with keywords split, trimmed and without empties', async () => {
    const { user, fetch } = await renderApp('/admin/seo', { user: personas.admin(), setup: setup() });
    fetch.on('POST', '/api/seo/settings', (req) => ({ json: req.body }));
    const name = await screen.findByLabelText('Site name', {}, { timeout: 5000 });
    expect(name).toHaveValue('District Learning');
    expect(screen.getByLabelText('Default meta keywords')).toHaveValue(
      'education, spanish, lessons, teaching',
    );
    await user.clear(screen.getByLabelText('Default meta keywords'));
    await user.type(screen.getByLabelText('Default meta keywords'), ' ser ,, estar ,');
    await user.click(screen.getByLabelText('Sitemap enabled'));
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('SEO settings saved successfully')).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/seo/settings')[0]?.body).toEqual({
      ...DEFAULT_SEO_SETTINGS,
      defaultMetaKeywords: ['ser', 'estar'],
      sitemapEnabled: false,
    });
    expect(screen.getByLabelText('Default meta keywords')).toHaveValue('ser, estar');
  });

  it("says 'Failed to save SEO settings' when saving fails, and checks IDs first", async () => {
    const { user, fetch } = await renderApp('/admin/seo', { user: personas.admin(), setup: setup() });
    fetch.on('POST', '/api/seo/settings', { status: 500, json: { statusCode: 500, message: 'boom' } });
    await user.click(await screen.findByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText(ContentMessages.saveSeoFailed)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Google Analytics ID'), '<script>');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(
      screen.getByText('Google Analytics ID may contain only letters, digits and hyphens'),
    ).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/seo/settings')).toHaveLength(1);
  });

  it('generates the sitemap, or says it failed', async () => {
    const { user, fetch } = await renderApp('/admin/seo', { user: personas.admin(), setup: setup() });
    fetch.on('POST', '/api/seo/sitemap/generate', {
      status: 400,
      json: { statusCode: 400, message: ContentMessages.sitemapDisabled },
    });
    await user.click(await screen.findByRole('button', { name: 'Generate Sitemap' }));
    expect(await screen.findByText(ContentMessages.generateSitemapFailed)).toBeInTheDocument();
    fetch.on('POST', '/api/seo/sitemap/generate', {
      json: {
        url: 'https://learn.example/sitemap.xml',
        urlCount: 8,
        generatedAt: '2026-01-02T10:00:00.000Z',
      },
    });
    await user.click(screen.getByRole('button', { name: 'Generate Sitemap' }));
    expect(await screen.findByText('Sitemap generated with 8 URLs')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'https://learn.example/sitemap.xml' })).toHaveAttribute(
      'href',
      'https://learn.example/sitemap.xml',
    );
  });

  it('analyses every post', async () => {
    const good = makePost({
      title: 'Good post',
      seoTitle: 's'.repeat(40),
      metaDescription: 'm'.repeat(130),
      focusKeyword: 'ser',
      metaKeywords: ['ser'],
    });
    const weak = makePost({ title: 'Weak post', seoTitle: 'short' });
    await renderApp('/admin/seo', { user: personas.admin(), setup: setup([good, weak]) });
    const table = await screen.findByRole('table', { name: 'SEO analysis per post' });
    await waitFor(() => expect(within(table).getByText('Good post')).toBeInTheDocument());
    const row = (title: string) => within(table).getByText(title).closest('tr') as HTMLElement;
    expect(within(row('Good post')).getByText('4/4')).toBeInTheDocument();
    expect(within(row('Good post')).getByText('All checks pass')).toBeInTheDocument();
    expect(within(row('Weak post')).getByText('0/4')).toBeInTheDocument();
    expect(
      within(row('Weak post')).getByText('SEO title: 30–60 characters — Too short (5 characters)'),
    ).toBeInTheDocument();
    expect(within(row('Weak post')).getByRole('link', { name: 'Edit Weak post' })).toHaveAttribute(
      'href',
      `/admin/posts/edit/${weak.id}`,
    );
  });
});
