/**
 * A part of a page the server rendered, below the fold on a phone, whose hydration waits until
 * the visitor may want it: its element (`id`, in the served markup) comes within `margin` of the
 * viewport, or they press or focus something in it, or the page asks for it (`open()`: a
 * signed-in visitor, whose view of it differs). Until then React keeps the served markup as it
 * is: the part is readable, its links work as plain links and its controls stay disabled (the
 * server renders them so until hydration). Where the part was not served (a page the app
 * rendered itself), the URL asks for a state of the page (a query string: a search, a filter,
 * an order) or names an element by its hash, or the browser has no IntersectionObserver, it is
 * wanted at once.
 *
 * Used with `React.lazy`: the part's chunk is fetched at once, and the lazy component resolves
 * when both the chunk and the visitor are there (docs/operations/scaling.md, "Seventh session:
 * Lighthouse").
 */
export function wantedPart(id: string, margin = '0px 0px 400px 0px') {
  let open!: () => void;
  const wanted = new Promise<void>((resolve) => (open = resolve));
  let watching = false;
  const watch = () => {
    if (watching) return;
    watching = true;
    const el = typeof document === 'undefined' ? null : document.getElementById(id);
    if (!el || window.location.search || window.location.hash || typeof IntersectionObserver === 'undefined') {
      open();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) open();
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    el.addEventListener('pointerdown', open, { once: true });
    el.addEventListener('focusin', open, { once: true });
    void wanted.then(() => {
      observer.disconnect();
      el.removeEventListener('pointerdown', open);
      el.removeEventListener('focusin', open);
    });
  };
  return {
    /** A lazy loader: the chunk at once, resolved once the part is wanted. */
    load<T>(chunk: () => Promise<T>): Promise<T> {
      const loading = chunk();
      watch();
      return wanted.then(() => loading);
    },
    /** Wanted now, wherever it is. */
    open: () => open(),
  };
}
