import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useI18n } from '../../i18n';
import { useHydrated } from '../../lib/hydrated';
import type FaqType from './faq';
import type { FaqHandoff } from './faq';
import { questions, type Question } from './faq-questions';
import styles from './faq.module.css';

const loadFaq = () => import('./faq');

/**
 * The FAQ sits at the bottom of the home page, so its accordion loads when the section comes
 * near the viewport (or at the first sign of intent: pointer, touch, focus). Until then the same
 * questions stand in, closed, with the same size. The stand-in stays in place while the chunk
 * loads, and is replaced in one synchronous step when it is there: a question pressed meanwhile
 * is open in the accordion, and the focus stays on the question it was on.
 */
export function FaqSlot() {
  const { t } = useI18n();
  const faq = t.home.faq;
  const ref = useRef<HTMLDivElement>(null);
  // The stand-in shows nothing when pressed, so a press can only mean "show me this": the last
  // question pressed is the one to open, however often it was pressed.
  const pressed = useRef<Question | null>(null);
  // A press under way (pointer or Space held down) when the accordion arrives would end on an
  // element the stand-in no longer is, and its click would reach neither: it counts as pressed.
  const pressing = useRef<Question | null>(null);
  const loading = useRef(false);
  const [real, setReal] = useState<{ Faq: typeof FaqType; handoff: FaqHandoff } | null>(null);
  // Inert until the app has taken the served page over (lib/hydrated.ts): a press before would be lost.
  const hydrated = useHydrated();

  /** The stand-in as it is this instant: the question pressed and the one with the focus. */
  const readStandIn = useCallback((): FaqHandoff => {
    const active = document.activeElement;
    const focused = active instanceof HTMLElement && ref.current?.contains(active) ? ((active.dataset.question as Question | undefined) ?? null) : null;
    return { open: pressing.current ?? pressed.current, focused };
  }, []);

  const load = useCallback(() => {
    if (loading.current) return;
    loading.current = true;
    loadFaq().then(
      // The stand-in is read, replaced and the focus moved (a layout effect in the accordion) in
      // one synchronous step, so no press can land in between: one before is read here, one
      // after lands in the accordion.
      ({ default: Faq }) => flushSync(() => setReal({ Faq, handoff: readStandIn() })),
      () => {
        // A failed fetch (e.g. offline) may succeed on the next intent; presses stay remembered.
        loading.current = false;
      },
    );
  }, [readStandIn]);

  useEffect(() => {
    const el = ref.current;
    if (!el || real || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) load();
      },
      { rootMargin: '0px 0px 400px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [real, load]);

  if (real) return <real.Faq handoff={real.handoff} />;
  const endPress = () => {
    pressing.current = null;
  };
  return (
    <div ref={ref} className={styles.root} onPointerEnter={load} onTouchStart={load} onFocus={load}>
      {questions.map((key) => (
        <div key={key} className={styles.item}>
          <h3 className={styles.question}>
            <button
              type="button"
              className={styles.trigger}
              aria-expanded="false"
              data-question={key}
              disabled={!hydrated}
              onClick={() => {
                pressed.current = key;
                pressing.current = null;
                load();
              }}
              onPointerDown={(e) => {
                if (e.button === 0) pressing.current = key;
              }}
              onPointerUp={endPress}
              onPointerCancel={endPress}
              onPointerLeave={endPress}
              onKeyDown={(e) => {
                if (e.key === ' ') pressing.current = key;
              }}
              onKeyUp={endPress}
              onBlur={endPress}
            >
              <span>{faq[key].question}</span>
              <span className={styles.indicator}>
                <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                  <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              </span>
            </button>
          </h3>
        </div>
      ))}
    </div>
  );
}
