import { useId, useState } from 'react';
import { ToggleGroup } from '@ark-ui/react/toggle-group';
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

  function choose(value: string[]) {
    // Not disabled while sending: a disabled button drops keyboard focus to the page body
    // (issue 29.5). A second choice while the first is on its way waits for its answer.
    if (mutation.isPending) return;
    if (!me) {
      askToLogIn(t.messages.emojiRateLoginRequired);
      return;
    }
    const rate = value.length > 0 ? Number(value[0]) : null;
    mutation.mutate({ id, rate });
  }

  return (
    <div className={styles.rating}>
      <ToggleGroup.Root
        className={styles.emojiRow}
        value={selected === null ? [] : [String(selected)]}
        onValueChange={(details) => choose(details.value)}
        deselectable
        disabled={own}
        aria-busy={mutation.isPending || undefined}
        aria-label={e.groupLabel}
        aria-describedby={own ? reasonId : undefined}
      >
        {EMOJI_RATES.map((rate) => {
          const count = shown.emojiCounts[String(rate) as keyof RateResult['emojiCounts']];
          return (
            <ToggleGroup.Item key={rate} value={String(rate)} className={styles.emoji} aria-label={e.option(e.names[rate], rate, number(count))}>
              <span aria-hidden="true" className={styles.emojiGlyph}>
                {EMOJI[rate]}
              </span>
              <span aria-hidden="true" className={styles.emojiCount}>
                {number(count)}
              </span>
            </ToggleGroup.Item>
          );
        })}
      </ToggleGroup.Root>
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
