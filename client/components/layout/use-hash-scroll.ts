import { useEffect } from 'react';
import { scrollBehavior } from './motion';

/** How long to wait for a hash target that renders late (comments arrive after their page). */
const WAIT_FOR_TARGET_MS = 8000;

/**
 * Scrolls smoothly to the element the URL's hash names (e.g. #comment-{id}, #cookies), waiting
 * for it to appear when the page renders it asynchronously, and puts a newly pushed page at the
 * top. wouter navigates with pushState, which fires no hashchange, so it listens to the
 * pushState/replaceState events wouter dispatches as well.
 */
export function useHashScroll() {
  useEffect(() => {
    let lastPath = window.location.pathname;
    let lastHash = '';
    let cancelWait: (() => void) | null = null;

    const onChange = (event: Event | null) => {
      const { pathname, hash } = window.location;
      const pathChanged = pathname !== lastPath;
      const hashChanged = hash !== lastHash;
      lastPath = pathname;
      lastHash = hash;
      if (hash.length > 1 && (pathChanged || hashChanged || event?.type === 'hashchange' || event?.type === 'pushState')) {
        cancelWait?.();
        cancelWait = scrollWhenPresent(decodeHash(hash));
      } else if (pathChanged && (event?.type === 'pushState' || event?.type === 'replaceState')) {
        cancelWait?.();
        cancelWait = null;
        window.scrollTo({ top: 0, behavior: 'auto' });
      }
    };

    onChange(null);
    const events = ['hashchange', 'popstate', 'pushState', 'replaceState'] as const;
    for (const name of events) window.addEventListener(name, onChange);
    return () => {
      cancelWait?.();
      for (const name of events) window.removeEventListener(name, onChange);
    };
  }, []);
}

function decodeHash(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
}

function scrollTo(element: Element) {
  element.scrollIntoView({ behavior: scrollBehavior(), block: 'start' });
}

/** Scrolls to #id now or once it exists; gives up after a while or when the user scrolls. */
function scrollWhenPresent(id: string): () => void {
  const present = document.getElementById(id);
  if (present) {
    scrollTo(present);
    return () => {};
  }
  const observer = new MutationObserver(() => {
    const element = document.getElementById(id);
    if (!element) return;
    stop();
    scrollTo(element);
  });
  const userScrolled = () => stop();
  const timer = window.setTimeout(stop, WAIT_FOR_TARGET_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    window.removeEventListener('wheel', userScrolled);
    window.removeEventListener('touchmove', userScrolled);
    window.removeEventListener('keydown', userScrolled);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  window.addEventListener('wheel', userScrolled, { passive: true });
  window.addEventListener('touchmove', userScrolled, { passive: true });
  window.addEventListener('keydown', userScrolled);
  return stop;
}
