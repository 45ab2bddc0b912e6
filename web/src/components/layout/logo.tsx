import { useEffect } from 'react';

export function LogoMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={className}>
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <path d="M8 11.5 16 7l8 4.5-8 4.5-8-4.5Z" fill="#fff" />
      <path d="M11 14.2v4.6c0 1.8 2.2 3.2 5 3.2s5-1.4 5-3.2v-4.6l-5 2.8-5-2.8Z" fill="#bfdbfe" />
      <path d="M24 11.5V18" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

export const PRODUCT_NAME = 'District Learning';

/**
 * Sets the browser tab title. An effect rather than React 19's hoisted <title>, because index.html keeps a
 * static <title> for no-JS clients and the first title element in the document wins.
 */
export function DocumentTitle({ title }: { title?: string }) {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : `${PRODUCT_NAME} · Lessons and classroom tools`;
  }, [title]);
  return null;
}
