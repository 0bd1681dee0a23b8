import { Switch } from '@ark-ui/react/switch';
import { useQuery } from '@tanstack/react-query';
import { useI18n } from '../../i18n';
import { useSetDigest } from '../accounts/mutations';
import { useTRPC } from '../../lib/trpc';
import { notify } from '../../components/ui/toast';
import styles from './digest-switch.module.css';

/** An admin's choice on the profile: a mail (at most one an hour) when reports hide a post. */
export function DigestSwitch() {
  const { t, errorText } = useI18n();
  const d = t.moderation.digest;
  const trpc = useTRPC();
  const digest = useQuery(trpc.moderation.digest.queryOptions());
  const set = useSetDigest({
    onSuccess: (result) => notify(result.modDigest ? d.on : d.off, 'success'),
    onError: (error) => notify(errorText(error), 'error'),
  });
  const checked = set.isPending ? set.variables.modDigest : (digest.data?.modDigest ?? false);
  return (
    <Switch.Root
      className={styles.switch}
      checked={checked}
      disabled={digest.isPending || set.isPending}
      onCheckedChange={(details) => set.mutate({ modDigest: details.checked })}
    >
      <Switch.Control className={styles.control}>
        <Switch.Thumb className={styles.thumb} />
      </Switch.Control>
      <span className={styles.text}>
        <Switch.Label className={styles.label}>{d.label}</Switch.Label>
        <span className={styles.hint}>{d.hint}</span>
      </span>
      {/* Announced as a switch (on/off), not a checkbox. */}
      <Switch.HiddenInput role="switch" />
    </Switch.Root>
  );
}
