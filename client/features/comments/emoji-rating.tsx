import { useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { RateResult } from '../../../shared/schemas/comments';
import { errorKeyOf, useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { useRatePost } from './mutations';
import { useAskToLogIn } from '../accounts/ask-to-log-in';
import { notify } from '../../components/ui/toast';
import { EMOJI, EMOJI_RATES } from './emoji';
import styles from './comments.module.css';

type Props = {
  kind: 'comment' | 'reply';
  id: string;
  authorId: string;
  /** The post's rating as last loaded; the answer to this user's own rating overrides it. */
  stats: RateResult;
};

/**
 * The row of five emojis, each with how many chose it. Choosing one rates the post, choosing
 * your current one again takes the rating back (docs/product.md §4). Visitors are asked to log in;
 * authors see the row disabled with the reason, since nobody rates their own post.
 */
export function EmojiRating({ kind, id, authorId, stats }: Props) {
  const { t, number, plural, errorText } = useI18n();
  const e = t.comments.emoji;
  const me = useViewer();
  const askToLogIn = useAskToLogIn();
  const reasonId = useId();
  const name = useId();
  // Kept with the stats it answered, so a refetch of the list (newer stats) wins over it.
  const [answer, setAnswer] = useState<{ source: RateResult; result: RateResult } | null>(null);
  const shown = answer && answer.source === stats ? answer.result : stats;

  const mutation = useRatePost(kind, {
    onSuccess: (result) => {
      setAnswer({ source: stats, result });
      notify(t.messages.emojiRateThanks, 'success');
    },
    onError: (error) => notify(errorKeyOf(error) ? errorText(error) : t.messages.emojiRateFailed, 'error'),
  });

  const own = me?._id === authorId;
  const pendingRate = mutation.isPending ? mutation.variables.rate : undefined;
  const selected = pendingRate !== undefined ? pendingRate : shown.myRate;

  function choose(rate: number | null) {
    // Not disabled while sending: a disabled input drops keyboard focus to the page body
    // (issue 29.5). A second choice while the first is on its way waits for its answer.
    if (mutation.isPending) return;
    if (!me) {
      askToLogIn(t.messages.emojiRateLoginRequired);
      return;
    }
    mutation.mutate({ id, rate });
  }

  // Native radios (decision 021): the browser gives the group one tab stop, arrow keys and
  // focus. An arrow key moves the focus and checks the next radio, which would rate each emoji
  // passed; here it only moves the focus (React puts the checked one back, as the input is
  // controlled), and Space or Enter (or a click) chooses, as the toggle group did. A checked
  // radio ignores Space and Enter: on the chosen emoji they click it, which takes it back.
  const arrowing = useRef(false);
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>, rate: number) {
    if (event.key.startsWith('Arrow')) arrowing.current = true;
    else if (event.key === 'Enter' || (event.key === ' ' && rate === selected)) {
      event.preventDefault();
      event.currentTarget.click();
    }
  }
  function onChange(rate: number) {
    if (arrowing.current) return;
    choose(rate);
  }
  // Choosing your current emoji again takes the rating back: a checked radio fires no change.
  function onClick(event: MouseEvent<HTMLInputElement>, rate: number) {
    if (arrowing.current || rate !== selected || event.currentTarget.disabled) return;
    choose(null);
  }

  return (
    <div className={styles.rating}>
      <fieldset
        role="radiogroup"
        className={styles.emojiRow}
        disabled={own}
        aria-busy={mutation.isPending || undefined}
        aria-label={e.groupLabel}
        aria-describedby={own ? reasonId : undefined}
      >
        {EMOJI_RATES.map((rate) => {
          const count = shown.emojiCounts[String(rate) as keyof RateResult['emojiCounts']];
          return (
            <label key={rate} className={styles.emoji} data-state={selected === rate ? 'on' : 'off'}>
              <input
                type="radio"
                className={styles.emojiInput}
                name={name}
                value={rate}
                checked={selected === rate}
                aria-label={e.option(e.names[rate], rate, number(count))}
                onChange={() => onChange(rate)}
                onClick={(event) => onClick(event, rate)}
                onKeyDown={(event) => onKeyDown(event, rate)}
                onKeyUp={() => {
                  arrowing.current = false;
                }}
              />
              <span aria-hidden="true" className={styles.emojiGlyph}>
                {EMOJI[rate]}
              </span>
              <span aria-hidden="true" className={styles.emojiCount}>
                {number(count)}
              </span>
            </label>
          );
        })}
      </fieldset>
      <p className={styles.ratingSummary} aria-live="polite">
        {shown.rate !== null ? `${e.average(number(shown.rate, 1))} · ` : ''}
        {number(shown.ratingCount)} {plural(shown.ratingCount, e.count)}
      </p>
      {own ? (
        <p id={reasonId} className={styles.hint}>
          {e.ownPost}
        </p>
      ) : null}
    </div>
  );
}
