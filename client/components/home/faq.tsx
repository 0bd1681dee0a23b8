import { Accordion } from '@ark-ui/react/accordion';
import { useI18n } from '../../i18n';
import styles from './faq.module.css';

import { questions } from './faq-questions';

/** The help section: four questions that open one at a time (`open`: the one to start open). */
export default function Faq({ open }: { open?: string }) {
  const { t } = useI18n();
  const faq = t.home.faq;
  return (
    <Accordion.Root className={styles.root} collapsible defaultValue={open ? [open] : undefined}>
      {questions.map((key) => (
        <Accordion.Item key={key} value={key} className={styles.item}>
          <h3 className={styles.question}>
            <Accordion.ItemTrigger className={styles.trigger}>
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
