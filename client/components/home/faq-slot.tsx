import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n';
import { questions } from './faq-questions';
import styles from './faq.module.css';

const loadFaq = () => import('./faq');
const Faq = lazy(loadFaq);

/**
 * The FAQ sits at the bottom of the home page, so its accordion loads when the section comes
 * near the viewport (or a question is pressed). Until then the same questions stand in, closed,
 * with the same size; a press opens that question once the accordion is there.
 */
export function FaqSlot() {
  const { t } = useI18n();
  const faq = t.home.faq;
  const ref = useRef<HTMLDivElement>(null);
  const [wanted, setWanted] = useState<{ open?: string } | null>(null);
  const focusMoved = useRef(false);

  useEffect(() => {
    const el = ref.current;
    if (!el || wanted || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setWanted((w) => w ?? {});
      },
      { rootMargin: '0px 0px 400px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [wanted]);

  const standIn = (
    <div ref={ref} className={styles.root}>
      {questions.map((key) => (
        <div key={key} className={styles.item}>
          <h3 className={styles.question}>
            <button type="button" className={styles.trigger} aria-expanded="false" onClick={() => setWanted({ open: key })}>
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

  if (!wanted) return standIn;
  // A pressed stand-in had the focus; it moves to the same question in the real accordion.
  const keepFocus = (el: HTMLDivElement | null) => {
    if (!el || !wanted.open || focusMoved.current) return;
    focusMoved.current = true;
    el.querySelector<HTMLButtonElement>('button[aria-expanded="true"]')?.focus();
  };
  return (
    <Suspense fallback={standIn}>
      <div ref={keepFocus}>
        <Faq open={wanted.open} />
      </div>
    </Suspense>
  );
}
