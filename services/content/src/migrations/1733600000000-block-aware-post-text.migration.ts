import sanitizeHtml from 'sanitize-html';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { htmlToText } from '../html/html-text';
import { excerptFromText, readTimeOf } from '../posts/post-text';

/**
 * Issue #34 item 12 (ADR 0035): the text stored beside each post was made by a `htmlToText` that ran neighbouring
 * blocks and table cells together ("Colombia.In Spain", "Los coloresRojo"), in the search text, the read time and
 * the excerpts made from it. This recomputes, once, from the stored (already sanitised) content:
 *
 * - `content_text` and `read_time` of every post (so search finds "Rojo" again);
 * - `excerpt`, only where it is the one the old code derived from this content: an excerpt an author typed is
 *   never touched. (One derived from an older version of the content, before an edit that did not send an excerpt,
 *   cannot be told from a typed one and is left as it is.)
 *
 * `updated_at` is left alone: the lesson did not change, so the sitemap's `lastmod` must not either. Posts are read
 * in pages by id, so a district's 10,000 lessons never sit in memory at once.
 */
const PAGE = 500;

export class BlockAwarePostText1733600000000 implements MigrationInterface {
  name = 'BlockAwarePostText1733600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows: {
        id: string;
        content: string;
        content_text: string;
        excerpt: string;
        read_time: number;
      }[] = await queryRunner.query(
        `SELECT id, content, content_text, excerpt, read_time FROM posts WHERE id > $1 ORDER BY id LIMIT $2`,
        [after, PAGE],
      );
      if (rows.length === 0) return;
      after = rows[rows.length - 1].id;
      const changed = rows.flatMap((row) => {
        const text = htmlToText(row.content);
        const derived = row.excerpt === legacyExcerptFromText(legacyHtmlToText(row.content));
        const excerpt = derived ? excerptFromText(text) : row.excerpt;
        const readTime = readTimeOf(text);
        return text === row.content_text && excerpt === row.excerpt && readTime === row.read_time
          ? []
          : [{ id: row.id, text, excerpt, readTime }];
      });
      if (changed.length === 0) continue;
      await queryRunner.query(
        `UPDATE posts p SET content_text = c.text, excerpt = c.excerpt, read_time = c.read_time
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[]) AS c(id, text, excerpt, read_time)
          WHERE p.id = c.id`,
        [
          changed.map((c) => c.id),
          changed.map((c) => c.text),
          changed.map((c) => c.excerpt),
          changed.map((c) => c.readTime),
        ],
      );
    }
  }

  async down(): Promise<void> {
    // The old text was wrong, and what it was is derivable from the content: nothing to restore.
  }
}

/**
 * The text and excerpt exactly as the code before this migration made them, frozen here so the migration keeps
 * recognising derived excerpts whatever the current functions become.
 */
const LEGACY_NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

export function legacyHtmlToText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, code: string) => {
      const lower = code.toLowerCase();
      if (lower.startsWith('#x')) return legacyCodePoint(parseInt(lower.slice(2), 16)) ?? entity;
      if (lower.startsWith('#')) return legacyCodePoint(parseInt(lower.slice(1), 10)) ?? entity;
      return LEGACY_NAMED[lower] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function legacyCodePoint(code: number): string | undefined {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

export function legacyExcerptFromText(text: string, max = 160): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
