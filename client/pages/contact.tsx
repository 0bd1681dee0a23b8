import { useEffect } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'wouter';
import { contactInputSchema, type ContactInput } from '../../server/schemas/common';
import { HoneypotField } from '../components/ui/honeypot-field';
import { notify } from '../components/ui/toast';
import { errorFieldsOf, useFieldError, useI18n } from '../i18n';
import { useMe } from '../lib/session';
import { useTRPC } from '../lib/trpc';
import styles from './contact.module.css';

const fieldNames = ['from_name', 'user_email', 'message'] as const;
const isFieldName = (name: string): name is (typeof fieldNames)[number] => (fieldNames as readonly string[]).includes(name);

export default function ContactPage() {
  const { t, errorText } = useI18n();
  const p = t.pages.contact;
  const fieldError = useFieldError();
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const { me } = useMe();
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
        // The server checks the same schema; its verdict lands on the fields it names.
        for (const [name, key] of Object.entries(errorFieldsOf(error))) {
          if (isFieldName(name)) setError(name, { message: key });
        }
        notify(p.failed(errorText(error)), 'error', 3000);
      },
    }),
  );

  const onSubmit = handleSubmit((values) => {
    if (!send.isPending) send.mutate(values);
  });

  const describedBy = (name: (typeof fieldNames)[number]) => (errors[name] ? `contact-${name}-error` : undefined);
  const errorLine = (name: (typeof fieldNames)[number]) =>
    errors[name] ? (
      <p id={`contact-${name}-error`} className="field-error">
        {fieldError(errors[name]?.message)}
      </p>
    ) : null;

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
        <div className="field">
          <label htmlFor="contact-from_name">{p.name}</label>
          <input
            id="contact-from_name"
            type="text"
            autoComplete="name"
            required
            aria-invalid={errors.from_name ? true : undefined}
            aria-describedby={describedBy('from_name')}
            {...register('from_name')}
          />
          {errorLine('from_name')}
        </div>
        <div className="field">
          <label htmlFor="contact-user_email">{p.email}</label>
          <input
            id="contact-user_email"
            type="email"
            inputMode="email"
            autoComplete="email"
            spellCheck={false}
            required
            aria-invalid={errors.user_email ? true : undefined}
            aria-describedby={describedBy('user_email')}
            {...register('user_email')}
          />
          {errorLine('user_email')}
        </div>
        <div className="field">
          <label htmlFor="contact-message">{p.message}</label>
          <textarea
            id="contact-message"
            rows={7}
            required
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={describedBy('message')}
            {...register('message')}
          />
          {errorLine('message')}
        </div>
        <HoneypotField id="contact-website" registration={register('website')} />
        <button type="submit" className={`btn btn-primary ${styles.submit}`} aria-disabled={send.isPending || undefined}>
          {send.isPending ? <span className={styles.busy} aria-hidden="true" /> : null}
          {send.isPending ? p.sending : p.submit}
        </button>
      </form>
    </div>
  );
}
