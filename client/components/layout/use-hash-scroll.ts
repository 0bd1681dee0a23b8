import { useEffect } from 'react';
import { scrollBehavior } from './motion';

/** How long to wait for a hash target that renders late (comments arrive after their page). */
const WAIT_FOR_TARGET_MS = 8000;
/** How long a restored position waits for the page to grow tall enough (lists load after Back). */
const WAIT_FOR_HEIGHT_MS = 5000;
/** Where the scroll positions outlive a reload (this tab only). */
const POSITIONS_KEY = 'recensera.scroll-positions';
/** Enough for a long Back trail; the oldest are forgotten first. */
const MAX_POSITIONS = 50;

/** The page's own address: its state is in the query string (lib/url-state.ts), its place in the hash. */
const placeOf = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

function readPositions(): Map<string, number> {
  try {
    const saved = JSON.parse(sessionStorage.getItem(POSITIONS_KEY) ?? '[]') as unknown;
    return new Map(
      Array.isArray(saved) ? saved.filter((e: unknown): e is [string, number] => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number') : [],
    );
  } catch {
    return new Map();
  }
}

/**
 * Scrolls smoothly to the element the URL's hash names (e.g. #comment-{id}, #cookies), waiting
 * for it to appear when the page renders it asynchronously, and puts a newly pushed page at the
 * top. Back, Forward and a reload put the page where the visitor left it instead: the browser's
 * own restoration runs before our lists have loaded (and lands short), so it is turned off and
 * each address's position is kept here. wouter navigates with pushState, which fires no
 * hashchange, so it listens to the pushState/replaceState events wouter dispatches as well.
 */
export function useHashScroll() {
  useEffect(() => {
    let lastPath = window.location.pathname;
    let lastHash = '';
    let cancelWait: (() => void) | null = null;
    const positions = readPositions();
    // While a position is being restored, the scrolling it causes is not the visitor's.
    let restoring = false;
    let frame = 0;
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';

    const remember = () => {
      frame = 0;
      if (restoring) return;
      const place = placeOf();
      positions.delete(place);
      positions.set(place, Math.round(window.scrollY));
      if (positions.size > MAX_POSITIONS) positions.delete(positions.keys().next().value as string);
    };
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(remember);
    };
    const save = () => {
      try {
        sessionStorage.setItem(POSITIONS_KEY, JSON.stringify([...positions]));
      } catch {
        // Storage full or refused: positions then last until the tab reloads.
      }
    };
    const restore = (top: number) => {
      restoring = true;
      cancelWait = scrollWhenTall(top, () => {
        restoring = false;
      });
    };

    const onChange = (event: Event | null) => {
      const { pathname, hash } = window.location;
      const pathChanged = pathname !== lastPath;
      const hashChanged = hash !== lastHash;
      lastPath = pathname;
      lastHash = hash;
      const saved = positions.get(placeOf());
      if (event?.type === 'popstate' && saved !== undefined) {
        cancelWait?.();
        restore(saved);
      } else if (hash.length > 1 && (pathChanged || hashChanged || event?.type === 'hashchange' || event?.type === 'pushState')) {
        cancelWait?.();
        cancelWait = scrollWhenPresent(decodeHash(hash));
      } else if (pathChanged && (event?.type === 'pushState' || event?.type === 'replaceState')) {
        cancelWait?.();
        cancelWait = null;
        window.scrollTo({ top: 0, behavior: 'auto' });
      }
    };

    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const saved = positions.get(placeOf());
    if (saved !== undefined && (navigation?.type === 'reload' || navigation?.type === 'back_forward')) {
      lastHash = window.location.hash;
      restore(saved);
    } else {
      onChange(null);
    }
    const events = ['hashchange', 'popstate', 'pushState', 'replaceState'] as const;
    for (const name of events) window.addEventListener(name, onChange);
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', save);
    return () => {
      cancelWait?.();
      save();
      if (frame) window.cancelAnimationFrame(frame);
      for (const name of events) window.removeEventListener(name, onChange);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', save);
    };
  }, []);
}

/** Stops `stop` when the visitor takes over: a wheel, a touch or a key. */
function untilTheVisitorScrolls(stop: () => void): () => void {
  const events = ['wheel', 'touchmove', 'keydown'] as const;
  for (const name of events) window.addEventListener(name, stop, { passive: true });
  return () => {
    for (const name of events) window.removeEventListener(name, stop);
  };
}

/**
 * Scrolls to `top` now, or as far as the page reaches and again as it grows (the list it was
 * scrolled down comes back from its cache or the server), until it gets there, a few seconds
 * pass or the visitor scrolls; `done` is called once it stops.
 */
function scrollWhenTall(top: number, done: () => void): () => void {
  let finished = false;
  const observer = new ResizeObserver(() => attempt());
  const timer = window.setTimeout(stop, WAIT_FOR_HEIGHT_MS);
  const release = untilTheVisitorScrolls(stop);
  function stop() {
    if (finished) return;
    finished = true;
    observer.disconnect();
    window.clearTimeout(timer);
    release();
    done();
  }
  function attempt() {
    if (finished) return;
    const reachable = document.documentElement.scrollHeight - window.innerHeight;
    window.scrollTo({ top: Math.min(top, Math.max(0, reachable)), behavior: 'auto' });
    if (reachable >= top) stop();
  }
  observer.observe(document.body);
  attempt();
  return stop;
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
  const timer = window.setTimeout(stop, WAIT_FOR_TARGET_MS);
  const release = untilTheVisitorScrolls(stop);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    release();
  }
  observer.observe(document.body, { childList: true, subtree: true });
  return stop;
}
