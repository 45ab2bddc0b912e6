/**
 * Spec §5 and §9: the per-post SEO analysis, shared so the editor's SEO panel, the SEO management page (web) and the
 * demo district's checks (content's seed tests) score a lesson the same way.
 */
export const SEO_TITLE_RANGE = { min: 30, max: 60 } as const;
export const META_DESCRIPTION_RANGE = { min: 120, max: 160 } as const;

export interface SeoFields {
  seoTitle: string;
  metaDescription: string;
  focusKeyword: string;
  metaKeywords: string[];
}

export interface SeoCheck {
  id: 'seoTitle' | 'metaDescription' | 'focusKeyword' | 'metaKeywords';
  label: string;
  ok: boolean;
  detail: string;
}

function lengthCheck(
  id: SeoCheck['id'],
  label: string,
  value: string,
  range: { min: number; max: number },
): SeoCheck {
  const n = value.trim().length;
  const ok = n >= range.min && n <= range.max;
  const detail =
    n === 0
      ? 'Missing'
      : n < range.min
        ? `Too short (${n} characters)`
        : n > range.max
          ? `Too long (${n} characters)`
          : `${n} characters`;
  return { id, label: `${label}: ${range.min}–${range.max} characters`, ok, detail };
}

export function analyzeSeo(fields: SeoFields): SeoCheck[] {
  const keywords = fields.metaKeywords.map((k) => k.trim()).filter(Boolean);
  return [
    lengthCheck('seoTitle', 'SEO title', fields.seoTitle, SEO_TITLE_RANGE),
    lengthCheck('metaDescription', 'Meta description', fields.metaDescription, META_DESCRIPTION_RANGE),
    {
      id: 'focusKeyword',
      label: 'Focus keyword present',
      ok: fields.focusKeyword.trim().length > 0,
      detail: fields.focusKeyword.trim() ? fields.focusKeyword.trim() : 'Missing',
    },
    {
      id: 'metaKeywords',
      label: 'At least one meta keyword',
      ok: keywords.length > 0,
      detail:
        keywords.length === 0 ? 'Missing' : `${keywords.length} keyword${keywords.length === 1 ? '' : 's'}`,
    },
  ];
}

/** Spec §5: comma separated, trimmed, empties dropped. */
export function parseKeywords(text: string): string[] {
  return text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
}
