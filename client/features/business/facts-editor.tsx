import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useI18n } from '../../i18n';
import { Spinner } from '../../components/ui/spinner';
import type { BusinessDetail } from './types';
import styles from './facts-editor.module.css';

// Only admins and the business's owners ever load the form (its own chunk).
const FactsForm = lazy(() => import('./facts-form').then((m) => ({ default: m.FactsForm })));

/**
 * On a business's page, for admins and its owners (the page asks useMayEditFacts; the server
 * checks the same, issue 31.1), in a chunk only they load: a button that opens the form for the business's and branches' facts and opening hours in place.
 * Opening moves focus to the form's heading; closing (saved or cancelled) back to the button.
 */
export default function FactsEditor({ business }: { business: BusinessDetail }) {
  const { t } = useI18n();
  const f = t.places.form;
  const [open, setOpen] = useState(false);
  const moved = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    if (!moved.current) return;
    (open ? heading : button).current?.focus();
  }, [open]);
  const toggle = (next: boolean) => {
    moved.current = true;
    setOpen(next);
  };
  if (!open) {
    return (
      <p className={styles.open}>
        <button ref={button} type="button" className="btn btn-outline btn-sm" onClick={() => toggle(true)}>
          {f.edit}
        </button>
      </p>
    );
  }
  return (
    <section className={`card ${styles.panel}`} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={heading} tabIndex={-1} className={styles.heading}>
        {f.heading}
      </h2>
      <Suspense fallback={<Spinner label={f.loading} showLabel />}>
        <FactsForm business={business} onDone={() => toggle(false)} />
      </Suspense>
    </section>
  );
}
