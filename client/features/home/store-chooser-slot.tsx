import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useQuery } from '@tanstack/react-query';
import { useI18n } from '../../i18n';
import { useTRPC } from '../../lib/trpc';
import { useHydrated } from '../../lib/hydrated';
import type { ChooserHandoff, StoreChooser as StoreChooserType } from './store-chooser';
import { chooserQuery } from './store-chooser-query';
import styles from './store-chooser.module.css';

const loadChooser = () => import('./store-chooser');

/**
 * The stand-in shows at once; the real chooser takes over when the visitor has shown intent and
 * its first list is there.
 *
 * The combobox with its popper is about 22 KB of gzip, a seventh of the home page's budget, and
 * most visitors never open it. So a plain field that looks the same stands in until the first sign
 * of intent (pointer, touch, focus), which fetches the chunk and the list's first page (the first
 * CHOOSER_LIMIT businesses A–Ö; the chooser searches on the server as the visitor types); then it
 * hands over what was typed, the caret and the focus.
 */
export function StoreChooserSlot() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const [wanted, setWanted] = useState(false);
  const list = useQuery({ ...trpc.business.directoryPage.queryOptions(chooserQuery('')), staleTime: 60_000, enabled: wanted });
  const c = t.home.chooser;
  const inputRef = useRef<HTMLInputElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  // A press the real chooser would answer by opening its list (its trigger, a click in the field,
  // an arrow key) is remembered, not lost.
  const wantOpen = useRef(false);
  const composing = useRef(false);
  const swapAfterComposition = useRef<(() => void) | null>(null);
  const loading = useRef(false);
  const [real, setReal] = useState<{ Chooser: typeof StoreChooserType; handoff: ChooserHandoff } | null>(null);
  // Inert until the app has taken the served page over (lib/hydrated.ts): no letter typed before.
  const hydrated = useHydrated();

  /** The stand-in as it is this instant: its live text and caret, not anything captured earlier. */
  const readStandIn = useCallback((): ChooserHandoff => {
    const input = inputRef.current;
    const active = document.activeElement;
    const focused = active && active === input ? 'input' : active && active === triggerRef.current ? 'trigger' : null;
    const text = input?.value ?? '';
    return {
      text,
      selection: [input?.selectionStart ?? text.length, input?.selectionEnd ?? text.length, input?.selectionDirection ?? 'none'],
      focused,
      // A list that opens while the visitor is elsewhere on the page would only be in the way.
      open: focused !== null && (wantOpen.current || text.length > 0),
    };
  }, []);

  const intent = useRef(false);
  const hasList = list.data !== undefined;
  const { isError: listFailed, refetch } = list;
  const load = useCallback(() => {
    intent.current = true;
    setWanted(true);
    // A list that could not be fetched (e.g. offline) is asked for again at the next intent.
    if (listFailed) void refetch();
    // Intent before the list arrived is honoured when it does (the effect below).
    if (!hasList || loading.current) return;
    loading.current = true;
    loadChooser().then(
      ({ StoreChooser }) => {
        // The stand-in is read, replaced and the real field focused (a layout effect there) in one
        // synchronous step, so no key can land in between: one pressed before goes into the
        // stand-in and is read here, one pressed after goes into the real field. A key still being
        // composed (a dead key for é) is finished in the stand-in first.
        const swap = () => flushSync(() => setReal({ Chooser: StoreChooser, handoff: readStandIn() }));
        if (composing.current) swapAfterComposition.current = swap;
        else swap();
      },
      () => {
        // A failed fetch (e.g. offline) may succeed on the next intent.
        loading.current = false;
      },
    );
  }, [hasList, listFailed, refetch, readStandIn]);
  useEffect(() => {
    if (hasList && intent.current) load();
  }, [hasList, load]);

  if (real) return <real.Chooser handoff={real.handoff} />;
  return (
    <div className={styles.root} onPointerEnter={load} onTouchStart={load} onFocus={load}>
      <label className={styles.label} htmlFor="store-chooser-standin">
        {c.label}
      </label>
      <div className={styles.control}>
        <input
          ref={inputRef}
          id="store-chooser-standin"
          className={styles.input}
          placeholder={c.placeholder}
          autoComplete="off"
          disabled={!hydrated}
          onClick={() => {
            wantOpen.current = true;
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') wantOpen.current = true;
          }}
          onCompositionStart={() => {
            composing.current = true;
          }}
          onCompositionEnd={() => {
            composing.current = false;
            const swap = swapAfterComposition.current;
            swapAfterComposition.current = null;
            swap?.();
          }}
        />
        <button
          ref={triggerRef}
          type="button"
          className={styles.trigger}
          aria-label={c.openList}
          disabled={!hydrated}
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
      {/* The field stays: the visitor can try again (the next intent asks again). */}
      {listFailed && (
        <p className="notice notice-error" role="alert">
          {c.error}
        </p>
      )}
    </div>
  );
}
