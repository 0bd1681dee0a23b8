import { useEffect } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'wouter';
import { contactInputSchema, type ContactInput } from '../../shared/schemas/common';
import { FormField, showFieldErrors } from '../components/ui/form-field';
import { HoneypotField } from '../components/ui/honeypot-field';
import { notify } from '../components/ui/toast';
import { useI18n } from '../i18n';
import { useViewer } from '../lib/session';
import { useTRPC } from '../lib/trpc';
import styles from './contact.module.css';

const fieldNames = ['from_name', 'user_email', 'message'] as const;

export default function ContactPage() {
  const { t, errorText } = useI18n();
  const p = t.pages.contact;
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const me = useViewer();
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    setValue,
    formState: { errors },
  } = useForm<ContactInput>({
    resolver: zodResolver(contactInputSchema),
    defaultValues: { from_name: '', user_email: '', message: '', website: '' },
  });

  // A signed-in user's name and address fill the fields they have not typed in yet.
  useEffect(() => {
    if (!me) return;
    if (getValues('from_name') === '') setValue('from_name', `${me.firstName} ${me.lastName}`.trim());
    if (getValues('user_email') === '') setValue('user_email', me.email);
  }, [me, getValues, setValue]);

  const send = useMutation(
    trpc.site.contact.mutationOptions({
      onSuccess() {
        notify(t.messages.contactSent, 'success', 3000);
        navigate('/');
      },
      onError(error) {
        showFieldErrors(error, setError, fieldNames);
        notify(p.failed(errorText(error)), 'error', 3000);
      },
    }),
  );

  const onSubmit = handleSubmit((values) => {
    if (!send.isPending) send.mutate(values);
  });

  return (
    <div className={`container page ${styles.page}`}>
      <div className={styles.intro}>
        <h1 id="contact-title" className="page-title">
          {p.title}
        </h1>
        <p className={styles.lead}>{p.intro}</p>
        <p className="muted">
          {p.privacyBefore}
          <Link href="/policy">{p.privacyLink}</Link>.
        </p>
      </div>

      <form className={`card ${styles.form}`} onSubmit={onSubmit} noValidate aria-labelledby="contact-title">
        <FormField id="contact-from_name" label={p.name} error={errors.from_name?.message} required>
          {(control) => <input type="text" autoComplete="name" {...control} {...register('from_name')} />}
        </FormField>
        <FormField id="contact-user_email" label={p.email} error={errors.user_email?.message} required>
          {(control) => <input type="email" inputMode="email" autoComplete="email" spellCheck={false} {...control} {...register('user_email')} />}
        </FormField>
        <FormField id="contact-message" label={p.message} error={errors.message?.message} required>
          {(control) => <textarea rows={7} {...control} {...register('message')} />}
        </FormField>
        <HoneypotField id="contact-website" registration={register('website')} />
        <button type="submit" className={`btn btn-primary ${styles.submit}`} aria-disabled={send.isPending || undefined}>
          {send.isPending ? <span className={styles.busy} aria-hidden="true" /> : null}
          {send.isPending ? p.sending : p.submit}
        </button>
      </form>
    </div>
  );
}
