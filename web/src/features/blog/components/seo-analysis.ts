/**
 * Spec §5 and §9: the per-post SEO analysis used by the editor's SEO panel and the SEO management page. It lives in the
 * contracts so the content service's demo-district tests score lessons with the very same checks.
 */
export {
  analyzeSeo,
  parseKeywords,
  META_DESCRIPTION_RANGE,
  SEO_TITLE_RANGE,
  type SeoCheck,
  type SeoFields,
} from '@district/contracts/content';
