import { createContext, createElement, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';

/** Outside `HydratedProvider` (a component test's own render) the browser's render is its own. */
const Hydrated = createContext(true);

/**
 * Gives `useHydrated()` its value, from the app's root (client/app.tsx): `initially` false on the
 * server and while the browser hydrates the server's markup, true in a page the browser renders
 * itself. After hydration it turns true in a transition: the components that read it render
 * again in slices that yield to the browser. A store read with `useSyncExternalStore` (server
 * snapshot false, browser snapshot true), as before, made React render all of them again in one
 * synchronous task as hydration ended: on a business page the page, its comment list and every
 * card's date (docs/decisions/021, twelfth session). A transition that reaches a served part whose
 * chunk has not arrived waits for that part to hydrate instead of painting it anew.
 */
export function HydratedProvider({ initially, children }: { initially: boolean; children: ReactNode }) {
  const [hydrated, setHydrated] = useState(initially);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return createElement(Hydrated.Provider, { value: hydrated }, children);
}

/**
 * False on the server and while React hydrates the server's markup, true after (and at once in
 * a page the browser renders itself).
 */
export function useHydrated(): boolean {
  return useContext(Hydrated);
}
