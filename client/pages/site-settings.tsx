import { useEffect } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { SITE_NAME_MAX, SITE_TAGLINE_MAX, SITE_WELCOME_MAX } from '../../shared/schemas/site-settings';
import { siteSettingsInputSchema, type SiteSettingsFormValues, type SiteSettingsInput } from '../../shared/schemas/site-settings-input';
import { FormField, showFieldErrors } from '../components/ui/form-field';
import { Spinner } from '../components/ui/spinner';
import { notify } from '../components/ui/toast';
import { useI18n } from '../i18n';
import { useSetSiteText } from '../lib/site-text';
import { useTRPC } from '../lib/trpc';
import styles from './contact.module.css';

const fieldNames = ['name', 'tagline.sv', 'tagline.en', 'welcome.sv', 'welcome.en'] as const;

/**
 * /site-settings (admins): the site's name, its tagline and the home page's welcome text in both
 * languages (issue 29 item 15). Saved, they show at once in this tab and on every page served.
 */
export default function SiteSettingsPage() {
  const { t, errorText, relative } = useI18n();
  const s = t.accounts.siteSettings;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const setSite = useSetSiteText();
  const settings = useQuery(trpc.site.settings.queryOptions());
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<SiteSettingsFormValues, unknown, SiteSettingsInput>({
    resolver: zodResolver(siteSettingsInputSchema),
    defaultValues: { name: '', tagline: { sv: '', en: '' }, welcome: { sv: '', en: '' } },
  });
  const loaded = settings.data;
  useEffect(() => {
    if (loaded) reset({ name: loaded.name, tagline: loaded.tagline, welcome: loaded.welcome });
  }, [loaded, reset]);

  const save = useMutation(
    trpc.site.updateSettings.mutationOptions({
      onSuccess(saved) {
        queryClient.setQueryData(trpc.site.settings.queryKey(), saved);
        setSite({ name: saved.name, tagline: saved.tagline, welcome: saved.welcome });
        notify(s.saved, 'success', 3000);
      },
      onError(error) {
        if (!showFieldErrors(error, setError, fieldNames)) notify(errorText(error), 'error', 4000);
      },
    }),
  );
  const onSubmit = handleSubmit((values) => {
    if (!save.isPending) save.mutate(values);
  });

  return (
    <div className={`container page ${styles.page}`}>
      <div className={styles.intro}>
        <h1 id="site-settings-title" className="page-title">
          {s.title}
        </h1>
        <p className={styles.lead}>{s.intro}</p>
        {loaded?.updatedAt ? <p className="muted">{s.lastSaved(relative(loaded.updatedAt) ?? '')}</p> : null}
      </div>
      {settings.isPending ? (
        <Spinner label={t.common.loading} showLabel />
      ) : settings.isError ? (
        <p className="notice notice-error" role="alert">
          {s.loadFailed} {errorText(settings.error)}
        </p>
      ) : (
        <form className={`card ${styles.form}`} onSubmit={onSubmit} noValidate aria-labelledby="site-settings-title">
          <FormField id="site-name" label={s.name} hint={s.nameHint(SITE_NAME_MAX)} error={errors.name?.message}>
            {(control) => <input type="text" autoComplete="off" {...control} {...register('name')} />}
          </FormField>
          <FormField id="site-tagline-sv" label={s.taglineSv} hint={s.taglineHint(SITE_TAGLINE_MAX)} error={errors.tagline?.sv?.message}>
            {(control) => <input type="text" lang="sv" autoComplete="off" {...control} {...register('tagline.sv')} />}
          </FormField>
          <FormField id="site-tagline-en" label={s.taglineEn} hint={s.taglineHint(SITE_TAGLINE_MAX)} error={errors.tagline?.en?.message}>
            {(control) => <input type="text" lang="en" autoComplete="off" {...control} {...register('tagline.en')} />}
          </FormField>
          <FormField id="site-welcome-sv" label={s.welcomeSv} hint={s.welcomeHint(SITE_WELCOME_MAX)} error={errors.welcome?.sv?.message}>
            {(control) => <textarea rows={5} lang="sv" {...control} {...register('welcome.sv')} />}
          </FormField>
          <FormField id="site-welcome-en" label={s.welcomeEn} hint={s.welcomeHint(SITE_WELCOME_MAX)} error={errors.welcome?.en?.message}>
            {(control) => <textarea rows={5} lang="en" {...control} {...register('welcome.en')} />}
          </FormField>
          <button type="submit" className={`btn btn-primary ${styles.submit}`} aria-disabled={save.isPending || undefined}>
            {save.isPending ? s.saving : s.save}
          </button>
        </form>
      )}
    </div>
  );
}
