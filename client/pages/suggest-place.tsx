import { useDeferredValue } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'wouter';
import { suggestionInputSchema, type SuggestionInput } from '../../shared/schemas/suggestions';
import { useLocalized } from '../features/business/localized';
import { FormField, showFieldErrors } from '../components/ui/form-field';
import { notify } from '../components/ui/toast';
import { useI18n } from '../i18n';
import { useSuggestPlace } from '../features/business/suggestions-mutations';
import { useTRPC } from '../lib/trpc';
import styles from './suggest-place.module.css';

const fieldNames = ['title', 'category', 'location', 'address', 'website'] as const;
/** Names this short find too much to be a useful duplicate hint. */
const DUPLICATE_MIN_CHARS = 3;

/** A member suggests a missing place (issue 31.5); below, their suggestions and each decision. */
export default function SuggestPlacePage() {
  const { t, errorText, relative } = useI18n();
  const s = t.suggestions.suggest;
  const m = t.suggestions.mine;
  const trpc = useTRPC();
  const localized = useLocalized();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors },
  } = useForm<SuggestionInput>({
    resolver: zodResolver(suggestionInputSchema),
    defaultValues: { title: '', category: '', location: '', address: '', website: '' },
  });

  // Duplicates pointed out while typing: the directory search of the name (folded like any search).
  const title = useDeferredValue(useWatch({ control, name: 'title' }).trim());
  const similar = useQuery({
    ...trpc.business.directoryPage.queryOptions({ search: title, limit: 5 }),
    enabled: title.length >= DUPLICATE_MIN_CHARS,
  });
  const duplicates = title.length >= DUPLICATE_MIN_CHARS ? (similar.data?.items.filter((b) => !b.isSuggestionBox) ?? []) : [];

  const mine = useQuery(trpc.suggestions.mine.queryOptions());

  const send = useSuggestPlace({
    onSuccess() {
      notify(s.sent, 'success', 3000);
      reset();
    },
    onError(error) {
      showFieldErrors(error, setError, fieldNames);
      notify(s.failed(errorText(error)), 'error', 3000);
    },
  });

  const onSubmit = handleSubmit((values) => {
    if (!send.isPending) send.mutate(values);
  });

  return (
    <div className={`container page ${styles.page}`}>
      <div>
        <h1 id="suggest-title" className="page-title">
          {s.title}
        </h1>
        <p>{s.intro}</p>
        <form className={`card ${styles.form}`} onSubmit={onSubmit} noValidate aria-labelledby="suggest-title">
          <FormField id="suggest-title-field" label={s.name} error={errors.title?.message} required>
            {(field) => <input type="text" autoComplete="off" maxLength={50} {...field} {...register('title')} />}
          </FormField>
          {duplicates.length > 0 ? (
            <section className={`notice ${styles.duplicates}`} aria-labelledby="suggest-duplicates" aria-live="polite">
              <h2 id="suggest-duplicates">{s.duplicatesTitle}</h2>
              <p>{s.duplicatesIntro}</p>
              <ul>
                {duplicates.map((b) => (
                  <li key={b.id}>
                    <Link href={`/business/${b.id}`}>{b.title}</Link> · {localized.category(b)}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <FormField id="suggest-category" label={s.category} hint={s.categoryHint} error={errors.category?.message} required>
            {(field) => <input type="text" maxLength={50} {...field} {...register('category')} />}
          </FormField>
          <FormField id="suggest-address" label={s.address} error={errors.address?.message} required>
            {(field) => <input type="text" autoComplete="street-address" maxLength={100} {...field} {...register('address')} />}
          </FormField>
          <FormField id="suggest-location" label={s.location} error={errors.location?.message} required>
            {(field) => <input type="text" autoComplete="address-level2" maxLength={100} {...field} {...register('location')} />}
          </FormField>
          <FormField id="suggest-website" label={s.website} hint={s.websiteHint} error={errors.website?.message}>
            {(field) => <input type="url" inputMode="url" autoComplete="url" spellCheck={false} maxLength={200} {...field} {...register('website')} />}
          </FormField>
          <button type="submit" className={`btn btn-primary ${styles.submit}`} aria-disabled={send.isPending || undefined}>
            {send.isPending ? s.sending : s.submit}
          </button>
        </form>
      </div>

      <section className={`card ${styles.form} ${styles.mine}`} aria-labelledby="suggest-mine">
        <h2 id="suggest-mine">{m.title}</h2>
        {mine.isError ? (
          <p className="notice notice-error">{errorText(mine.error)}</p>
        ) : mine.data && mine.data.length === 0 ? (
          <p className="muted">{m.empty}</p>
        ) : (
          <ul>
            {(mine.data ?? []).map((item) => (
              <li key={item._id}>
                <p>
                  <strong>{item.title}</strong>, {item.location} · <time dateTime={item.createdAt}>{relative(item.createdAt)}</time>
                </p>
                <p>
                  {m.status[item.status]}
                  {item.status === 'approved' && item.businessId ? (
                    <>
                      {' · '}
                      <Link href={`/business/${item.businessId}`}>{m.open}</Link>
                    </>
                  ) : null}
                </p>
                {item.reason ? <p className="muted">{m.reason(item.reason)}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
