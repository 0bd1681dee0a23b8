import { useMemo } from 'react';
import { createListCollection } from '@ark-ui/react/select';
import { useQuery } from '@tanstack/react-query';
import { mailCategories, mailChoices, type MailChoice } from '../../../shared/schemas/notifications';
import { useI18n } from '../../i18n';
import { useSetNotificationSettings } from './mutations';
import { useTRPC } from '../../lib/trpc';
import styles from '../accounts/profile.module.css';
import { ListSelect, type ListItem } from '../../components/ui/list-select';

const isChoice = (v: string): v is MailChoice => (mailChoices as readonly string[]).includes(v);

/** The profile's "E-post om notiser": instant, daily or off per kind, saved at once. */
export function MailSettings() {
  const { t } = useI18n();
  const s = t.notifications.settings;
  const trpc = useTRPC();
  const query = useQuery(trpc.notifications.settings.queryOptions());
  const save = useSetNotificationSettings();
  const choices = useMemo(() => createListCollection<ListItem>({ items: mailChoices.map((value) => ({ value, label: s.choices[value] })) }), [s]);
  return (
    <section className={styles.section} aria-labelledby="profile-mail-title">
      <h2 id="profile-mail-title" className={styles.sectionTitle}>
        {s.title}
      </h2>
      <p className={styles.hint}>{s.hint}</p>
      {query.data
        ? mailCategories.map((category) => (
            <ListSelect
              key={category}
              label={s.categories[category]}
              collection={choices}
              value={query.data[category]}
              onChange={(value) => {
                if (isChoice(value)) save.mutate({ [category]: value });
              }}
            />
          ))
        : null}
    </section>
  );
}
