/**
 * Keeps keyboard focus across the app's first render over a prerendered copy (issue 29.6).
 *
 * A page without server data shows its build-time copy until the app has rendered, then
 * `createRoot` replaces that copy's elements with its own. A visitor who was already tabbing
 * through the copy had focus on an element that is then removed: focus fell back to the body
 * and the next Tab started again from the top of the page. This remembers which element had
 * focus (by id, or link target and text, or its place among the focusable elements) and,
 * once the app's elements are in, focuses the same one in them.
 */

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

type Key = { id: string; href: string | null; text: string; index: number; count: number };

function keyOf(container: HTMLElement, el: Element): Key | null {
  if (!(el instanceof HTMLElement) || !container.contains(el)) return null;
  const all = Array.from(container.querySelectorAll(FOCUSABLE));
  return { id: el.id, href: el.getAttribute('href'), text: (el.textContent ?? '').trim(), index: all.indexOf(el), count: all.length };
}

function find(container: HTMLElement, key: Key): HTMLElement | null {
  if (key.id) {
    const byId = document.getElementById(key.id);
    if (byId && container.contains(byId)) return byId;
  }
  const all = Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE));
  const same = all.find((el) => el.getAttribute('href') === key.href && (el.textContent ?? '').trim() === key.text);
  if (same) return same;
  // By place only when the app shows as many focusable elements as the copy did (not a fallback).
  return key.index >= 0 && all.length === key.count ? (all[key.index] ?? null) : null;
}

/**
 * Call just before the app's first render replaces `container`'s children. The watch ends once
 * focus is handed over, once the visitor focuses something in the app themselves, or after 10 s
 * (a route's chunk may show its fallback first, so the element can come a render later).
 */
export function keepFocusAcrossFirstRender(container: HTMLElement): void {
  const initial = Array.from(container.childNodes);
  if (initial.length === 0) return;
  const inCopy = (node: Node) => initial.some((n) => n.contains(node));
  let key: Key | null = document.activeElement && inCopy(document.activeElement) ? keyOf(container, document.activeElement) : null;
  let replaced = false;
  const onFocusIn = (event: FocusEvent) => {
    if (!(event.target instanceof Element)) return;
    if (!replaced && inCopy(event.target)) key = keyOf(container, event.target);
    else if (replaced) stop();
  };
  const restore = () => {
    if (!replaced) {
      if (initial.some((n) => n.isConnected)) return;
      replaced = true;
    }
    if (!key) return stop();
    const active = document.activeElement;
    if (active && active !== document.body) return stop();
    const target = find(container, key);
    if (target) {
      target.focus({ preventScroll: true });
      stop();
    }
  };
  const observer = new MutationObserver(restore);
  const timer = window.setTimeout(() => stop(), 10_000);
  document.addEventListener('focusin', onFocusIn);
  observer.observe(container, { childList: true, subtree: true });
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    document.removeEventListener('focusin', onFocusIn);
  }
}
