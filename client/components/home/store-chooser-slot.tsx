import { useCallback, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n';
import type { ChooserHandoff, StoreChooser as StoreChooserType } from './store-chooser';
import type { BusinessSummary } from './types';
import styles from './store-chooser.module.css';

const loadChooser = () => import('./store-chooser');

/**
 * The stand-in shows at once, before the list has loaded; the real chooser takes over when the
 * list is there and the visitor has shown intent.
 *
 * The combobox with its popper is about 22 KB of gzip, a seventh of the home page's budget, and
 * most visitors never open it. So a plain field that looks the same stands in until the first
 * sign of intent (pointer, touch, focus), then hands over what was typed and the focus.
 */
export function StoreChooserSlot({ businesses }: { businesses: BusinessSummary[] | undefined }) {
  const { t } = useI18n();
  const c = t.home.chooser;
  const inputRef = useRef<HTMLInputElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const wantOpen = useRef(false);
  const loading = useRef(false);
  const [real, setReal] = useState<{ Chooser: typeof StoreChooserType } | null>(null);
  // Read from the stand-in in the render that replaces it, not when the chunk arrived: letters
  // typed while React was still rendering would otherwise be lost.
  const handoff = useRef<ChooserHandoff | null>(null);

  const intent = useRef(false);
  const hasList = businesses !== undefined;
  const load = useCallback(() => {
    intent.current = true;
    // Intent before the list arrived is honoured when it does (the effect below).
    if (!hasList || loading.current) return;
    loading.current = true;
    loadChooser().then(
      ({ StoreChooser }) => setReal({ Chooser: StoreChooser }),
      () => {
        // A failed fetch (e.g. offline) may succeed on the next intent.
        loading.current = false;
      },
    );
  }, [hasList]);
  useEffect(() => {
    if (hasList && intent.current) load();
  }, [hasList, load]);

  if (real && businesses) {
    if (!handoff.current) {
      const active = document.activeElement;
      const focused = active && active === inputRef.current ? 'input' : active && active === triggerRef.current ? 'trigger' : null;
      handoff.current = { text: inputRef.current?.value ?? '', focused, open: wantOpen.current };
    }
    return <real.Chooser businesses={businesses} handoff={handoff.current} />;
  }
  return (
    <div className={styles.root} onPointerEnter={load} onTouchStart={load} onFocus={load}>
      <label className={styles.label} htmlFor="store-chooser-standin">
        {c.label}
      </label>
      <div className={styles.control}>
        <input ref={inputRef} id="store-chooser-standin" className={styles.input} placeholder={c.placeholder} autoComplete="off" />
        <button
          ref={triggerRef}
          type="button"
          className={styles.trigger}
          aria-label={c.openList}
          onClick={() => {
            wantOpen.current = true;
            load();
          }}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      </div>
    </div>
  );
}
