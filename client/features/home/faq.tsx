import { useLayoutEffect, useRef } from 'react';
import { Accordion } from '@ark-ui/react/accordion';
import { useI18n } from '../../i18n';
import styles from './faq.module.css';

import { questions, type Question } from './faq-questions';

/** What the visitor already did in the stand-in questions before this arrived (faq-slot.tsx). */
export type FaqHandoff = { open: Question | null; focused: Question | null };

/** The help section: four questions that open one at a time (`handoff.open`: the one to start open). */
export default function Faq({ handoff }: { handoff: FaqHandoff }) {
  const { t } = useI18n();
  const faq = t.home.faq;
  const rootRef = useRef<HTMLDivElement>(null);
  // Before this task ends and before paint: the stand-in was just removed with the focus, and a
  // key pressed before the focus is back on the same question would go to the page instead.
  useLayoutEffect(() => {
    if (!handoff.focused) return;
    rootRef.current?.querySelector<HTMLButtonElement>(`button[data-question="${handoff.focused}"]`)?.focus();
  }, [handoff]);
  return (
    <Accordion.Root ref={rootRef} className={styles.root} collapsible defaultValue={handoff.open ? [handoff.open] : undefined}>
      {questions.map((key) => (
        <Accordion.Item key={key} value={key} className={styles.item}>
          <h3 className={styles.question}>
            <Accordion.ItemTrigger className={styles.trigger} data-question={key}>
              <span>{faq[key].question}</span>
              <Accordion.ItemIndicator className={styles.indicator}>
                <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                  <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              </Accordion.ItemIndicator>
            </Accordion.ItemTrigger>
          </h3>
          <Accordion.ItemContent className={styles.answer}>
            <p>{faq[key].answer}</p>
          </Accordion.ItemContent>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
