import { useRef, useState, type KeyboardEvent } from 'react';
import { RatingGroup } from '@ark-ui/react/rating-group';
import { useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { useRateBusiness } from './mutations';
import { useAskToLogIn } from '../accounts/ask-to-log-in';
import { notify } from '../../components/ui/toast';
import { StarItems } from './star-items';
import styles from './rate-business.module.css';

/**
 * The user's own stars and the Rate button. The button is aria-disabled (it keeps focus) while
 * sending and once the chosen rate is saved ('Rate Submitted'); choosing another rate enables it again, since a new
 * rating replaces the old one. Nothing is sent for 0 stars; visitors are asked to log in.
 * `disabled`: until the app has taken over a server-rendered page, so no press is silently lost.
 */
export function RateBusiness({ businessId, myRate, disabled = false }: { businessId: string; myRate: number | null; disabled?: boolean }) {
  const { t, errorText } = useI18n();
  const me = useViewer();
  const askToLogIn = useAskToLogIn();
  const [value, setValue] = useState(myRate ?? 0);
  const [saved, setSaved] = useState<number | null>(myRate);
  // The page may first show the anonymous view the server rendered; a signed-in visitor's own
  // rating arrives with the next answer and becomes the chosen and saved rate.
  const [shownMyRate, setShownMyRate] = useState(myRate);
  if (myRate !== shownMyRate) {
    setShownMyRate(myRate);
    setValue(myRate ?? 0);
    setSaved(myRate);
  }

  const rate = useRateBusiness(businessId, {
    onSuccess: (result) => setSaved(result.myRate),
    onError: (error) => notify(errorText(error), 'error'),
  });

  const controlRef = useRef<HTMLDivElement>(null);
  const locked = rate.isPending || disabled;
  // The arrow keys move the choice as in any radio group. Handled here, before Ark UI's own
  // handler, which ignores them while the pointer rests over the stars (after a click).
  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    const steps: Record<string, number> = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: -5, End: 5 };
    const step = steps[event.key];
    if (step === undefined || locked || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const next = Math.min(5, Math.max(1, Math.max(0, value) + step));
    setValue(next);
    controlRef.current?.querySelector<HTMLElement>(`[role="radio"][aria-posinset="${next}"]`)?.focus();
  };

  const unrate = useRateBusiness(businessId, {
    onSuccess: () => {
      setSaved(null);
      setValue(0);
      notify(t.business.rating.removed, 'success');
    },
    onError: (error) => notify(errorText(error), 'error'),
  });

  const done = saved !== null && saved === value;
  const submit = () => {
    if (disabled) return;
    if (!me) {
      askToLogIn(t.messages.businessRateLoginRequired);
      return;
    }
    if (value < 1 || rate.isPending || done || disabled) return;
    rate.mutate({ id: businessId, rate: value });
  };

  return (
    <div className={styles.rate}>
      <RatingGroup.Root
        count={5}
        value={value}
        onValueChange={(details) => setValue(details.value)}
        disabled={locked}
        translations={{ ratingValueText: t.business.rating.stars }}
        className={styles.group}
      >
        <RatingGroup.Label className={styles.label}>{t.business.rating.yours}</RatingGroup.Label>
        <RatingGroup.Control ref={controlRef} className={styles.control} onKeyDownCapture={onKeyDownCapture}>
          <StarItems size={30} />
        </RatingGroup.Control>
        <RatingGroup.HiddenInput />
      </RatingGroup.Root>
      {/* aria-disabled, not disabled: a disabled button drops keyboard focus to the page body
          the moment it is pressed (issue 29.5); a press while it says so does nothing. */}
      <button type="button" className="btn btn-primary" onClick={submit} aria-disabled={value < 1 || rate.isPending || done || disabled || undefined}>
        {rate.isPending || done ? t.business.rating.submitted : t.business.rating.rate}
      </button>
      {saved !== null ? (
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => {
            if (unrate.isPending || disabled) return;
            // The button goes away with the rating: focus moves to the stars, not the page body.
            controlRef.current?.querySelector<HTMLElement>('[role="radio"]')?.focus();
            unrate.mutate({ id: businessId, rate: null });
          }}
          aria-disabled={unrate.isPending || disabled || undefined}
        >
          {t.business.rating.remove}
        </button>
      ) : null}
    </div>
  );
}
