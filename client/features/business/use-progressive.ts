import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Shows a long list in steps: `step` items first, the next step whenever the sentinel below the
 * list comes near the viewport, or when the visible "show more" button is pressed (keyboards,
 * and browsers that never scroll). Starts over whenever `resetKey` changes (a new search).
 */
export function useProgressive(total: number, resetKey: unknown, step = 24) {
  const [limit, setLimit] = useState(step);
  const [key, setKey] = useState(resetKey);
  if (key !== resetKey) {
    setKey(resetKey);
    setLimit(step);
  }
  const sentinel = useRef<HTMLDivElement>(null);
  const hasMore = limit < total;
  const showMore = useCallback(() => setLimit((n) => n + step), [step]);

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) showMore();
      },
      { rootMargin: '0px 0px 600px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
    // `limit` re-arms the observer, so a sentinel still in view after a step loads the next one.
  }, [hasMore, showMore, limit]);

  return { shown: Math.min(limit, total), hasMore, showMore, sentinel };
}
