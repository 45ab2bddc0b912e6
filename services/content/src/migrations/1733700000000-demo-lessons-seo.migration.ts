import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sanitizePostHtml } from '../html/html-sanitizer';
import { htmlToText } from '../html/html-text';
import { excerptFromText, excerptOf } from '../posts/post-text';
import { DEMO_POSTS } from '../seed/demo-content';

/**
 * Issue #34 item 16 (ADR 0035): the demo district's six lessons were seeded without SEO fields (0 of 4 on the SEO
 * page) and with excerpts cut from their text. A demo database made before gets, once, what a fresh seed now writes:
 * the SEO title, meta description, focus keyword and keywords where they are still blank, and the written excerpt
 * where the excerpt is still the one derived from the text. Only lessons whose content is still the seeded one are
 * touched (the fixed demo ids never occur in a real district), so an admin's own work on a demo lesson stays.
 */
export class DemoLessonsSeo1733700000000 implements MigrationInterface {
  name = 'DemoLessonsSeo1733700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const demo of DEMO_POSTS) {
      const content = sanitizePostHtml(demo.content);
      const derived = excerptFromText(htmlToText(content));
      await queryRunner.query(
        `UPDATE posts SET
           seo_title = CASE WHEN seo_title = '' THEN $3 ELSE seo_title END,
           meta_description = CASE WHEN meta_description = '' THEN $4 ELSE meta_description END,
           focus_keyword = CASE WHEN focus_keyword = '' THEN $5 ELSE focus_keyword END,
           meta_keywords = CASE WHEN cardinality(meta_keywords) = 0 THEN $6 ELSE meta_keywords END,
           excerpt = CASE WHEN excerpt = $7 THEN $8 ELSE excerpt END
         WHERE id = $1 AND content = $2`,
        [
          demo.id,
          content,
          demo.seoTitle,
          demo.metaDescription,
          demo.focusKeyword,
          demo.metaKeywords,
          derived,
          excerptOf(demo.excerpt, htmlToText(content)),
        ],
      );
    }
  }

  async down(): Promise<void> {
    // Filled fields cannot be told from an admin's later edits of them: nothing to undo.
  }
}
