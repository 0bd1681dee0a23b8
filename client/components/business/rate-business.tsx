import { useState } from 'react';
import { RatingGroup } from '@ark-ui/react/rating-group';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useI18n } from '../../i18n';
import { useMe } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { notify } from '../ui/toast';
import { StarItems } from './stars';
import styles from './rate-business.module.css';

/**
 * The user's own stars and the Rate button. The button is disabled while sending and once the
 * chosen rate is saved ('Rate Submitted'); choosing another rate enables it again, since a new
 * rating replaces the old one. Nothing is sent for 0 stars; visitors are asked to log in.
 * `disabled`: until the app has taken over a server-rendered page, so no press is silently lost.
 */
export function RateBusiness({ businessId, myRate, disabled = false }: { businessId: string; myRate: number | null; disabled?: boolean }) {
  const { t, errorText } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { me } = useMe();
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

  const rate = useMutation(
    trpc.business.rate.mutationOptions({
      onSuccess: (result) => {
        setSaved(result.myRate);
        queryClient.setQueryData(trpc.business.byId.queryKey({ id: businessId }), (b) =>
          b ? { ...b, rate: result.rate, ratingCount: result.ratingCount, myRate: result.myRate } : b,
        );
        void queryClient.invalidateQueries(trpc.business.directory.pathFilter());
        void queryClient.invalidateQueries(trpc.business.list.pathFilter());
      },
      onError: (error) => notify(errorText(error), 'error'),
    }),
  );

  const done = saved !== null && saved === value;
  const submit = () => {
    if (!me) {
      notify(t.messages.businessRateLoginRequired, 'info');
      return;
    }
    if (value < 1) return;
    rate.mutate({ id: businessId, rate: value });
  };

  return (
    <div className={styles.rate}>
      <RatingGroup.Root
        count={5}
        value={value}
        onValueChange={(details) => setValue(details.value)}
        disabled={rate.isPending || disabled}
        translations={{ ratingValueText: t.business.rating.stars }}
        className={styles.group}
      >
        <RatingGroup.Label className={styles.label}>{t.business.rating.yours}</RatingGroup.Label>
        <RatingGroup.Control className={styles.control}>
          <StarItems size={30} />
        </RatingGroup.Control>
        <RatingGroup.HiddenInput />
      </RatingGroup.Root>
      <button type="button" className="btn btn-primary" onClick={submit} disabled={value < 1 || rate.isPending || done || disabled}>
        {rate.isPending || done ? t.business.rating.submitted : t.business.rating.rate}
      </button>
    </div>
  );
}
