import { useEffect, useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/** Where each history entry was scrolled to, by location key (kept for the page's lifetime). */
const positions = new Map<string, number>();

/**
 * What React Router's <ScrollRestoration> does, without needing its data router (the app uses the declarative
 * <BrowserRouter>, ADR 0023): a new page starts at the top (or at its #hash, left to the browser), and back/forward
 * returns to where that entry was scrolled.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();

  useLayoutEffect(() => {
    if (navigationType === 'POP') {
      const y = positions.get(location.key);
      if (y !== undefined) window.scrollTo(0, y);
      return;
    }
    if (!location.hash) window.scrollTo(0, 0);
    // Only a new entry (its key) moves the page; re-renders of the same one do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);

  useEffect(() => {
    const save = () => positions.set(location.key, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => {
      save();
      window.removeEventListener('scroll', save);
    };
  }, [location.key]);

  return null;
}
